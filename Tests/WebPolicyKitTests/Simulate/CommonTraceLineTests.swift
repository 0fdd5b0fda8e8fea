import Foundation
import Testing
import URLFilter
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// The common line's reader (`TYPE URL [top=URL] [frame=URL] [expect=V]` from its bytes) must give exactly the entry
/// the full line parser gives, wherever it answers — and leave every other line, and every
/// line with something wrong, to the full parser.
@Suite("Trace lines read from their bytes")
struct CommonTraceLineTests {
    /// Every field of an entry, as text.
    static func describe(_ entry: TraceEntry) -> String {
        let range = { (range: SourceRange?) in range.map { "\($0.start.line):\($0.start.column)-\($0.end.line):\($0.end.column)" } ?? "-" }
        return [
            "\(entry.line)", "\(entry.kind)", entry.typeName, entry.resourceType.rawValue, entry.url.description, entry.url.requestString,
            entry.url.host ?? "-", range(entry.urlRange), entry.expect?.rawValue ?? "-", range(entry.expectRange), "\(entry.fieldsEnd)",
            entry.top?.description ?? "-", entry.frame?.description ?? "-", entry.method ?? "-", entry.cookies?.joined(separator: ",") ?? "-",
            entry.actions.map { $0.map(\.rawValue).joined(separator: ",") } ?? "-", entry.initiator?.rawValue ?? "-",
            entry.expectHandoff.map { "\($0)" } ?? "-", entry.message == nil ? "-" : "message",
        ].joined(separator: " | ")
    }

    /// What the full parser makes of a line: its entry described, or nil.
    static func fully(_ line: String, number: Int) -> String? {
        var line = line
        return line.withUTF8 { bytes in
            if case .entry(let entry) = TraceParser.parseAnyLine(bytes, number: number) { return describe(entry) }
            return nil
        }
    }

    /// Checks one line; true when the common reader answered it.
    @discardableResult
    static func check(_ line: String, number: Int) -> Bool {
        var text = line
        let common = text.withUTF8 { TraceParser.parseCommonLine($0, number: number) }
        guard let common else { return false }
        let full = fully(line, number: number)
        #expect(full == describe(common), "'\(line)': the full parser reads \(full ?? "a problem or no entry")")
        return true
    }

    @Test func everyFixtureAndExampleTraceLineReadsAsTheFullParserReadsIt() throws {
        var answered = 0
        for folder in ["Tests/Fixtures", "policies"] {
            let root = Repository.path(folder)
            let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".trace") } ?? []
            #expect(!files.isEmpty, "no traces under \(folder)")
            for file in files.sorted() {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                for (offset, line) in text.components(separatedBy: "\n").enumerated() where Self.check(line, number: offset + 1) { answered += 1 }
            }
        }
        #expect(answered > 50, "the common reader answered only \(answered) fixture lines")
    }

    /// Random lines from pieces that matter: known, unknown and message types, good and bad
    /// URLs, expectations right and wrong, other keys, comments, tabs, non-ASCII.
    @Test func randomLinesReadAsTheFullParserReadsThem() {
        var random = SplitMix64(state: 0x7A_CE11)  // seeded: a failure replays
        let types = ["script", "image", "page", "document", "top-document", "child-document", "popup", "fetch", "ping", "style-sheet", "font",
                     "media", "other", "message", "scrpt", "Script", "", "policy:", "origin:"]
        let urls = ["https://cdn.example.com/a.js", "http://Legacy.Example.com/x?y=1#z", "https://example.com", "https://a.b.example.co.uk/p/q.png?v=8",
                    "https://münchen.example/ü", "http://192.168.0.1/", "https://x.example:8080/", "nota url", "https://", "mailto:a@b.example",
                    "about:blank", "https://x.example/%2e%2e/", "https://xn--bcher-kva.example/", "data:text/plain,hi", "#", "https://x.example/#frag"]
        let thirds = ["", "", "expect=allow", "expect=block", "expect=upgrade", "expect=intercept", "expect=maybe", "expect=", "top=https://t.example/",
                      "method=post", "# a comment", "handler=h", "expect=allow expect=block", "by=link", "cookies=a,b", "actions=block", "é=1",
                      "frame=https://widget.example/embed", "top=https://T.Example/p#f expect=block", "frame=https://f.example/ top=https://t.example/",
                      "top=https://a.example/ top=https://b.example/", "top=nota-url", "top=", "frame=about:blank expect=allow"]
        let gaps = [" ", " ", "  ", "\t", " \t "]
        var answered = 0
        for number in 1...20_000 {
            func pick(_ pieces: [String]) -> String { pieces[Int(random.next() % UInt64(pieces.count))] }
            var line = (random.next() % 8 == 0 ? pick(gaps) : "") + pick(types) + pick(gaps) + pick(urls)
            let third = pick(thirds)
            if !third.isEmpty { line += pick(gaps) + third }
            if random.next() % 8 == 0 { line += pick(gaps) }
            if Self.check(line, number: number) { answered += 1 }
        }
        #expect(answered > 3_000, "the common reader answered only \(answered) of 20,000 lines")
    }

    /// What the common reader leaves to the full parser.
    @Test(arguments: ["message https://x.example/ handler=h", "script https://x.example/ top=https://t.example/ top=https://u.example/", "https://bare.example/",
                      "script https://x.example/ expect=maybe", "scrpt https://x.example/", "image https://münchen.example/", "script nota-url",
                      "script https://x.example/ # why", "script https://x.example/ expect=allow by=link", "# comment", ""])
    func leavesOtherLinesToTheFullParser(line: String) {
        var text = line
        #expect(text.withUTF8 { TraceParser.parseCommonLine($0, number: 1) } == nil)
    }
}
