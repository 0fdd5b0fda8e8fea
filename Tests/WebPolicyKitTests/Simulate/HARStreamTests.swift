import Foundation
import Testing
import URLFilter
import TestSupport
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// A HAR capture read as it is simulated: cut anywhere by reads and blocks, its entries are
/// the same; a problem deep inside is reported at its line and column; the same requests as a
/// trace get the same verdicts.
@Suite("HAR stream")
struct HARStreamTests {
    /// HAR's names for the trace types it can say (a popup has none).
    static let harTypes = ["script": "script", "image": "image", "fetch": "fetch", "child-document": "document", "ping": "ping", "style-sheet": "stylesheet"]

    /// A trace's requests as a HAR capture (one entry a line, pages first or last), and the
    /// trace without the lines HAR cannot say.
    static func harForm(_ text: String, pagesLast: Bool = false) -> (har: String, trace: String) {
        var entries: [String] = []
        var pages: [String] = []
        var kept: [Substring] = []
        var page = ""
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2 else { continue }
            let url = fields[1]
            if fields[0] == "page" {
                page = "page_\(pages.count)"
                pages.append(#"{"id": "\#(page)", "title": "\#(url)", "pageTimings": {"onLoad": 1.5}}"#)
                entries.append(entry(page: page, type: "document", url: url))
                kept.append(line)
                continue
            }
            guard let type = harTypes[String(fields[0])] else { continue }
            entries.append(entry(page: page, type: type, url: url))
            kept.append(line)
        }
        let pagesMember = #""pages": [\#n\#(pages.joined(separator: ",\n"))\#n]"#
        let entriesMember = #""entries": [\#n\#(entries.joined(separator: ",\n"))\#n]"#
        let members = pagesLast ? [entriesMember, pagesMember] : [pagesMember, entriesMember]
        let har = #"{"log": {"version": "1.2", "creator": {"name": "test", "version": "1"},\#n\#(members.joined(separator: ",\n"))}}"# + "\n"
        return (har, kept.joined(separator: "\n") + "\n")
    }

    static func entry(page: String, type: String, url: Substring) -> String {
        // A hyperlink audit says so in its headers and body, as a browser sends one.
        let ping = type == "ping" ? #", "headers": [{"name": "Ping-To", "value": "https://a.example/"}], "postData": {"mimeType": "text/ping", "text": "PING"}"# : #", "headers": [{"name": "Accept", "value": "*/*"}]"#
        return #"{"pageref": "\#(page)", "_resourceType": "\#(type)", "time": 12.5, "request": {"method": "GET", "url": "\#(url)"\#(ping)}, "response": {"status": 200, "content": {"size": 10, "mimeType": "text/plain", "text": "a \"quoted\" body\\n"}}, "timings": {"wait": 1}}"#
    }

    static func read(_ har: String, readSize: Int = 1 << 20, blockEntries: Int = HARStream.blockEntries) -> (entries: [TraceEntry], problems: [TraceParser.Problem]) {
        let stream = HARStream(path: "c.har", bytes: Array(har.utf8), blockEntries: blockEntries, readSize: readSize)
        var entries: [TraceEntry] = []
        while let block = stream.nextEntries() { entries += block }
        return (entries, stream.problems)
    }

    static func summary(_ entries: [TraceEntry]) -> [String] {
        entries.map { "\($0.line):\($0.urlRange.start.column) \($0.typeName) \($0.url) top=\($0.top?.description ?? "-") \($0.method ?? "GET")" }
    }

    static var newsSite: String {
        get throws { try String(contentsOfFile: Repository.path("Tests/Fixtures/simulate/har/news-site.har"), encoding: .utf8) }
    }

    @Test func theHARFormGivesThePageLineFormsVerdictsInOrder() throws {
        let (list, trace) = try TallyAgreementTests.longBareListTrace("shape-har")
        let (har, kept) = Self.harForm(try String(contentsOfFile: trace, encoding: .utf8))
        let folder = (trace as NSString).deletingLastPathComponent
        try kept.write(toFile: folder + "/kept.trace", atomically: true, encoding: .utf8)
        try har.write(toFile: folder + "/capture.har", atomically: true, encoding: .utf8)
        let pageForm = try TraceShapeAgreementTests.verdicts(lists: [list], trace: folder + "/kept.trace").sorted { $0.key < $1.key }.map(\.value)
        let harForm = try TraceShapeAgreementTests.verdicts(lists: [list], trace: folder + "/capture.har").sorted { $0.key < $1.key }.map(\.value)
        #expect(pageForm.count > 30_000 && pageForm.count == harForm.count)
        let differing = pageForm.indices.filter { pageForm[$0] != harForm[$0] }
        #expect(differing.isEmpty, "requests \(differing.prefix(5)) differ")
        #expect(Set(pageForm) == [.allow, .block, .upgrade])
        // Counted, as a summary counts them, the same.
        let counted = try SimulationSession(contentRulesPaths: [list]).run(paths: [folder + "/capture.har"]).report.traces[0]
        #expect(counted.verdicts.reduce(0, +) == harForm.count)
        #expect(counted.verdicts[Verdict.block.ordinal] == harForm.filter { $0 == .block }.count)
    }

    @Test func readsCutAnywhereGiveTheSameEntries() throws {
        let (generated, _) = Self.harForm("image https://before.example/a.png\npage https://www.news1.example/p\nscript https://cdn.example/x.js\nping https://p.example/a\nchild-document https://w.example/f\nimage https://cdn.example/i.png\n")
        for har in [try Self.newsSite, generated, generated.replacingOccurrences(of: "\n", with: "\r\n"), generated.replacingOccurrences(of: "\n", with: "\r")] {
            let whole = Self.read(har)
            #expect(whole.problems.isEmpty && whole.entries.count >= 5)
            for readSize in [1, 2, 3, 7, 64] {
                for blockEntries in [1, 2, 5] {
                    let cut = Self.read(har, readSize: readSize, blockEntries: blockEntries)
                    #expect(cut.problems.isEmpty)
                    #expect(Self.summary(cut.entries) == Self.summary(whole.entries), "read \(readSize), block \(blockEntries)")
                }
            }
        }
    }

    @Test func pagesWrittenAfterTheEntriesNameTheirPagesAsBefore() throws {
        let text = "page https://www.news1.example/p\nscript https://cdn.example/x.js\npage https://www.news2.example/q\nimage https://cdn.example/i.png\n"
        let before = Self.read(Self.harForm(text).har)
        for readSize in [3, 1 << 20] {
            let after = Self.read(Self.harForm(text, pagesLast: true).har, readSize: readSize)
            #expect(after.problems.isEmpty)
            #expect(after.entries.map(\.typeName) == ["page", "script", "page", "image"])
            #expect(after.entries.map { $0.top?.description } == before.entries.map { $0.top?.description })
        }
    }

    /// The shown page's entries are its subresources: their top is the page as loaded, after
    /// a make-https upgrade, as under a page line; a capture and the trace recorded from it
    /// agree.
    @Test func theShownPagesEntriesTakeThePageAsLoaded() throws {
        let folder = try TemporaryFolder.make("har-upgrade")
        let list = folder.appendingPathComponent("list.json").path
        try #"""
        [{"trigger": {"url-filter": "^http://news\\.example\\.com"}, "action": {"type": "make-https"}},
         {"trigger": {"url-filter": "clip\\.mp4", "if-top-url": ["^https://news"]}, "action": {"type": "block"}}]
        """#.write(toFile: list, atomically: true, encoding: .utf8)
        let har = Self.harForm("page http://news.example.com/today\nimage https://video.example.com/clip.mp4\n").har
        try har.write(to: folder.appendingPathComponent("c.har"), atomically: true, encoding: .utf8)
        let read = Self.read(har)
        #expect(read.entries.map { $0.top } == [nil, nil])
        var session = SimulationSession(contentRulesPaths: [list])
        session.keepsAllResults = true
        let results = try session.run(paths: [folder.appendingPathComponent("c.har").path]).report.all
        #expect(results.map(\.verdict) == [.upgrade, .block])
        let recorded = HARReader.traceText(results, policyReference: nil, source: "c.har")
        #expect(!recorded.contains("top="))
    }

    /// A page's document answered with a redirect, and the document it redirects to: that is
    /// the same navigation going on (`page … by=redirect`), not an iframe.
    @Test func aMainDocumentsRedirectIsTheNavigationGoingOn() {
        let har = #"""
        {"log": {"pages": [{"id": "p", "title": "http://news.example.com/"}], "entries": [
        {"pageref": "p", "_resourceType": "document", "request": {"url": "http://news.example.com/"}, "response": {"status": 301, "redirectURL": "https://news.example.com/"}},
        {"pageref": "p", "_resourceType": "document", "request": {"url": "https://news.example.com/"}, "response": {"status": 200, "redirectURL": ""}},
        {"pageref": "p", "_resourceType": "script", "request": {"url": "https://cdn.example/x.js"}, "response": {"status": 200}},
        {"pageref": "p", "_resourceType": "document", "request": {"url": "https://news.example.com/"}, "response": {"status": 200}},
        {"pageref": "q", "_resourceType": "document", "request": {"url": "https://a.example/old"}, "response": {"status": "302", "redirectURL": "/new"}},
        {"pageref": "q", "_resourceType": "document", "request": {"url": "https://a.example/new"}, "response": {"status": 302, "redirectURL": "/newer"}},
        {"pageref": "q", "_resourceType": "document", "request": {"url": "https://a.example/newer"}, "response": {"status": 200}}
        ]}}
        """#
        // (A status written as a string is not a redirect: page q's second document is an iframe.)
        let read = Self.read(har)
        #expect(read.problems.isEmpty)
        #expect(read.entries.map(\.typeName) == ["page", "page", "script", "child-document", "page", "child-document", "child-document"])
        #expect(read.entries.map { $0.initiator?.rawValue ?? "-" } == ["-", "redirect", "-", "-", "-", "-", "-"])
    }

    /// Safari names a page after its main document, which it may not type as a document.
    @Test func aPageNamedAfterItsDocumentIsThePage() {
        let har = #"""
        {"log": {"entries": [
        {"pageref": "p1", "request": {"url": "https://a.example/"}, "response": {"content": {"mimeType": "application/octet-stream"}}},
        {"pageref": "p1", "request": {"url": "https://cdn.example/x.js"}, "response": {"content": {"mimeType": "text/javascript"}}}
        ], "pages": [{"id": "p1", "title": "https://a.example/"}]}}
        """#
        let read = Self.read(har)
        #expect(read.problems.isEmpty)
        #expect(read.entries.map(\.typeName) == ["page", "script"])
        #expect(read.entries.last?.top == nil)  // the shown page's subresource
    }

    @Test func aBrokenEntryDeepInsideIsReportedAtItsLineAndColumn() throws {
        var text = "page https://www.news1.example/p\n"
        for item in 0..<9_000 { text += "image https://cdn.example/\(item).png\n" }
        var (har, _) = Self.harForm(text)
        // Entry 8,000 (line 8,006 of the capture) loses the colon after its "time".
        let broken = #"{"pageref": "page_0", "_resourceType": "image", "time" 12.5"#
        var lines = har.components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains("/7999.png") })
        lines[index] = lines[index].replacingOccurrences(of: #"{"pageref": "page_0", "_resourceType": "image", "time": 12.5"#, with: broken)
        har = lines.joined(separator: "\n")
        for readSize in [4_096, 1 << 20] {
            let read = Self.read(har, readSize: readSize, blockEntries: 1_000)
            #expect(read.problems.count == 1)
            #expect(read.problems.first?.message == "expected ':' after the key")
            #expect(read.problems.first?.range.start == SourcePosition(line: index + 1, column: broken.count - 3))
            // What came before was handed out; nothing after.
            #expect(read.entries.count >= 7_000 && read.entries.count <= 8_000)
            #expect(read.entries.allSatisfy { $0.line <= index })
        }
        // Every problem of a wrong entry, the first one stopping the hand-out.
        let badURL = har.replacingOccurrences(of: broken, with: #"{"pageref": "page_0", "_resourceType": "image", "time": 12.5"#)
            .replacingOccurrences(of: "https://cdn.example/100.png", with: "https//bad").replacingOccurrences(of: "https://cdn.example/200.png", with: "https//worse")
        let read = Self.read(badURL, blockEntries: 64)
        #expect(read.problems.map { $0.message.prefix(33) } == ["the URL 'https//bad' does not par", "the URL 'https//worse' does not p"])
        // The page and the entries up to the first wrong one.
        #expect(read.entries.count == 101)
    }

    /// The document around the entries: what is wrong is said where, as the whole-file parser
    /// says it.
    @Test func documentProblemsAreWhereTheyAre() {
        let cases: [(String, String, SourcePosition)] = [
            ("", "c.har is empty", SourcePosition(line: 1, column: 1)),
            ("  \n", "unexpected end of the JSON text", SourcePosition(line: 2, column: 1)),
            ("[1, 2]", "a HAR file is an object with a 'log' object", SourcePosition(line: 1, column: 1)),
            ("{\"other\": 1}", "a HAR file is an object with a 'log' object", SourcePosition(line: 1, column: 1)),
            ("{\"log\": {\"pages\": []}}", "the log has no 'entries' array", SourcePosition(line: 1, column: 9)),
            ("{\"log\": {\"entries\": {}}}", "the log has no 'entries' array", SourcePosition(line: 1, column: 9)),
            ("{\"log\": {\"entries\": []}} x", "unexpected text after the JSON value", SourcePosition(line: 1, column: 26)),
            ("{\"log\": {\"entries\": [\n{\"request\": {\"url\": \"https://a.example/\"}} {}]}}", "expected ',' or ']'", SourcePosition(line: 2, column: 44)),
            ("{\"log\": {\"entries\": [\n{\"request\": {\"url\": \"https://a.example/\"}}", "expected ',' or ']'", SourcePosition(line: 2, column: 43)),
            ("{\"log\": {\"entries\": [\n{\"request\": {\"url\": \"https://a.ex", "unterminated string", SourcePosition(line: 2, column: 34)),
            ("{\"log\": {\"entries\": [\n{\"response\": {}}]}}", "an entry without request.url", SourcePosition(line: 2, column: 1)),
            ("{\"log\" {}}", "expected ':' after the key", SourcePosition(line: 1, column: 8)),
            ("{\"log\": {\"creator\": [}, \"entries\": []}}", "unexpected character '}'", SourcePosition(line: 1, column: 22)),
        ]
        for (har, message, position) in cases {
            for readSize in [1, 1 << 20] {
                let read = Self.read(har, readSize: readSize)
                #expect(read.problems.first?.message == message, "\(har)")
                #expect(read.problems.first?.range.start == position, "\(har)")
                // An entry whole before the problem is handed out, as a trace's lines are.
                #expect(read.entries.allSatisfy { $0.urlRange.end <= position }, "\(har)")
            }
        }
        // A byte-order mark takes no column.
        let marked = Self.read("\u{FEFF}{\"log\" {}}")
        #expect(marked.problems.first?.range.start == SourcePosition(line: 1, column: 8))
        // UTF-16 without a mark is said to be UTF-16.
        let unmarked = HARStream(path: "u.har", bytes: Array("{}".utf16.flatMap { [UInt8($0), 0] }))
        #expect(unmarked.nextEntries() == nil)
        #expect(unmarked.problems.first?.message.contains("looks like UTF-16") == true)
        // A UTF-16 capture is refused at its start.
        let utf16 = HARStream(path: "u.har", bytes: [0xFF, 0xFE] + Array("{}".utf16.flatMap { [UInt8($0), 0] }))
        #expect(utf16.nextEntries() == nil)
        #expect(utf16.problems.first?.message.contains("UTF-16") == true)
    }

    /// What the fuzz target found: a capture read in pieces read differently from the whole
    /// (problems out of order, an entry before a later problem handed out or not, a problem
    /// after passed-over entries dropped). The target's own cut: reads of 1 to 16 bytes.
    @Test(arguments: ["stream-problem-order", "stream-entries-before-a-later-problem", "stream-problem-after-passed-over-entries"])
    func theFuzzFindingsReadTheSameInPieces(name: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Repository.path("ci/fuzz/regressions/FuzzHAR/\(name)"))))
        let har = String(decoding: bytes, as: UTF8.self)
        let whole = Self.read(har)
        #expect(!whole.problems.isEmpty)
        for readSize in 1...16 {
            let cut = Self.read(har, readSize: readSize, blockEntries: 1 + readSize % 3)
            #expect(cut.problems.map(\.message) == whole.problems.map(\.message) && cut.problems.map(\.range) == whole.problems.map(\.range), "read \(readSize)")
            #expect(Self.summary(cut.entries) == Self.summary(whole.entries), "read \(readSize)")
        }
    }

    /// Where the whole-file parser finds the text broken, the stream finds a problem too, and
    /// where it does not, neither does the stream (bytes of the fixture dropped or doubled).
    @Test func brokenCapturesAreBrokenForTheStreamToo() throws {
        let har = Array(try Self.newsSite.utf8)
        var random = SplitMix64(state: 11)
        for _ in 0..<300 {
            var bytes = har
            let at = Int(random.next() % UInt64(bytes.count))
            if random.next() % 2 == 0 { bytes.remove(at: at) } else { bytes.insert(bytes[at], at: at) }
            let whole = JSONDocument.parse(bytes: bytes)
            let stream = HARStream(path: "c.har", bytes: bytes, readSize: 97)
            while stream.nextEntries() != nil {}
            if case .failure(let error) = whole {
                #expect(!stream.problems.isEmpty, "\(error.message) at \(error.position)")
            }
        }
    }
}

/// The skim (an entry read without its tree) answers as the full parse does, or leaves the
/// entry to it: entries of every shape the skim treats apart, and random damage.
@Suite("HAR entry skim")
struct HAREntrySkimTests {
    static func answer(_ entry: String, skimming: Bool) -> String {
        let bytes = Array(entry.utf8)
        switch HAREntry.read(bytes, 0..<bytes.count, at: SourcePosition(line: 7, column: 3), skimming: skimming) {
        case .dataURL: return "data"
        case .problem(let problem): return "problem \(problem.message) at \(problem.range.start)"
        case .request(let request):
            return "\(request.line) \(request.url) \(request.urlText) \(request.urlRange.start)-\(request.urlRange.end) \(request.method ?? "-") \(request.type) \(request.pageref)"
        }
    }

    static let shapes = [
        #"{"pageref": "p", "_resourceType": "script", "request": {"method": "post", "url": "https://a.example/x.js"}, "response": {"content": {"mimeType": "text/html"}}}"#,
        #"{"request": {"url": "https://a.example/"}, "request": {"url": "https://b.example/", "method": ""}}"#,
        #"{"request": {"url": "https://a.example/"}, "request": 5}"#,
        #"{"request": {"url": "https:\/\/escaped.example\/"}}"#,
        #"{"req\u0075est": {"url": "https://key-escaped.example/"}}"#,
        #"{"request": {"url": "data:text/plain,x"}}"#,
        #"{"request": {"url": "https//bad"}}"#,
        #"{"request": {"headers": [], "url": 12}}"#,
        #"{"_resourceType": "ping", "request": {"url": "https://p.example/", "headers": [{"name": "Ping-To", "value": "x"}]}}"#,
        "{\n  \"time\": -1.5e+3,\n  \"request\": {\n    \"url\": \"https://multi.example/line\"\n  },\n  \"response\": {\"content\": {\"size\": 0, \"mimeType\": \"image/png\"}, \"content\": {\"x\": [true, false, null, {}, []]}}\n}",
        #"{"response": {"content": {"mimeType": "text/css"}}, "request": {"url": "https://a.example/é/\u00e9", "method": "GET"}, "pageref": "p\u0031"}"#,
        #"{"request": {"url": "https://a.example/"}, "time": 01}"#,
        #"{"request": {"url": "https://a.example/"}, "time": 1.}"#,
        #"{"request": {"url": "https://a.example/"}, "x": "\q"}"#,
        #"{"request": {"url": "https://a.example/"}, "x": tru}"#,
        #"{"request": {"url": "https://a.example/"},}"#,
    ]

    @Test func theSkimAnswersAsTheFullParse() {
        for shape in Self.shapes {
            #expect(Self.answer(shape, skimming: true) == Self.answer(shape, skimming: false), "\(shape)")
        }
        var random = SplitMix64(state: 5)
        for _ in 0..<3_000 {
            var bytes = Array(Self.shapes[Int(random.next() % UInt64(Self.shapes.count))].utf8)
            for _ in 0..<(1 + random.next() % 3) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(bytes[Int(random.next() % UInt64(bytes.count))], at: at)
                default: bytes[at] = [UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "]"), 0x0A, 0x01, UInt8(ascii: ",")][Int(random.next() % 7)]
                }
            }
            let entry = String(decoding: bytes, as: UTF8.self)
            #expect(Self.answer(entry, skimming: true) == Self.answer(entry, skimming: false), "\(entry)")
        }
    }
}
