import Foundation
import Testing
import TestSupport
import URLFilter
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// `--format json` writes each chunk's lines on the core that decided them and puts in only
/// the trace and the shared records' names in order; when something else needs every result
/// (coverage, kept results) the same lines are written one result at a time. Both must give
/// the same bytes, whatever the chunks, and the records' texts must be left out of each line
/// as the strings they are (across several lists too).
@Suite("JSON lines: written where decided, or one at a time")
struct JSONLinesTests {
    /// The JSON lines of a run, through chunks or (`oneAtATime`) through results.
    static func json(_ session: SimulationSession, _ paths: [String], oneAtATime: Bool) throws -> (text: String, summary: String, chunks: Int) {
        var session = session
        session.keepsAllResults = oneAtATime
        var writer = SimulationJSONWriter()
        var output: [UInt8] = []
        var chunks = 0
        let outcome = try session.run(paths: paths, json: { part, trace in
            if case .chunk = part { chunks += 1 }
            writer.write(part, trace: trace, into: &output)
        })
        #expect(outcome.inputProblems.diagnostics.isEmpty, "\(outcome.inputProblems.diagnostics.map(\.message))")
        #expect((chunks == 0) == oneAtATime, "one at a time: results only; else chunks only")
        return (String(decoding: output, as: UTF8.self), outcome.report.summary.jsonLine, chunks)
    }

    static func expectSameBothWays(_ session: SimulationSession, _ paths: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let chunked = try json(session, paths, oneAtATime: false)
        let single = try json(session, paths, oneAtATime: true)
        #expect(chunked.summary == single.summary, sourceLocation: sourceLocation)
        let (left, right) = (chunked.text.split(separator: "\n"), single.text.split(separator: "\n"))
        #expect(left.count == right.count, sourceLocation: sourceLocation)
        if let (line, pair) = zip(left, right).enumerated().map({ ($0.offset + 1, $0.element) }).first(where: { $0.1.0 != $0.1.1 }) {
            Issue.record("line \(line) differs:\nchunks:      \(pair.0)\none at a time: \(pair.1)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: SimulateFixtureTests.traces)
    func aPolicyTraceWritesTheSameBothWays(path: String) throws {
        try Self.expectSameBothWays(SimulationSession(), [Repository.path(path)])
    }

    @Test(arguments: SimulateFixtureTests.listTraces)
    func aBareListTraceWritesTheSameBothWays(path: String) throws {
        let lists = try SimulateFixtureTests.lists(of: path)
        try Self.expectSameBothWays(SimulationSession(contentRulesPaths: lists), [Repository.path(path)])
    }

    /// A list whose universal rules hide and notify on every page (a shared record), with
    /// hiding rules of some sites and blocks; 500 pages of images, scripts and pings, split
    /// into blocks and chunks. Then the same list twice, so that every line's own texts are
    /// compared across two string tables (a selector both lists hide is listed once).
    @Test func aLongTraceWritesTheSameBothWaysOverOneListAndTwo() throws {
        let folder = try TemporaryFolder.make("json-lines")
        var rules: [String] = []
        for number in 0..<40 { rules.append(##"{"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".ad-\##(number)"}}"##) }
        rules.append(##"{"trigger":{"url-filter":".*"},"action":{"type":"notify","notification":"seen"}}"##)
        for site in 0..<5 {
            rules.append(##"{"trigger":{"url-filter":".*","if-top-url":["news\##(site)\\.example"]},"action":{"type":"css-display-none","selector":"#site-\##(site), .ad-1"}}"##)
        }
        rules.append(##"{"trigger":{"url-filter":"tracker","resource-type":["script","ping"]},"action":{"type":"block"}}"##)
        rules.append(##"{"trigger":{"url-filter":"\\.png","if-top-url":["news3"]},"action":{"type":"css-display-none","selector":".png-\"quoted\""}}"##)
        let list = folder.appendingPathComponent("list.json")
        try ("[\n" + rules.joined(separator: ",\n") + "\n]\n").write(to: list, atomically: true, encoding: .utf8)
        var text = ""
        for page in 0..<500 {
            text += "page https://news\(page % 7).example/p\(page)\n"
            for item in 0..<4 { text += "image https://cdn.example.org/\(page)/\(item).png\n" }
            text += "script https://tracker.example.net/t\(page).js\n"
            text += "ping https://news\(page % 7).example/ping?p=\(page)#f\n"
        }
        let trace = folder.appendingPathComponent("long.trace")
        try text.write(to: trace, atomically: true, encoding: .utf8)
        let one = try Self.json(SimulationSession(contentRulesPaths: [list.path]), [trace.path], oneAtATime: false)
        #expect(one.text.contains("\"shared\":\"s1\""), "the list's universal rules make a shared record")
        #expect(one.chunks > 1, "the trace is decided in several chunks")
        try Self.expectSameBothWays(SimulationSession(contentRulesPaths: [list.path]), [trace.path])
        try Self.expectSameBothWays(SimulationSession(contentRulesPaths: [list.path, list.path]), [trace.path])
        for lists in [[list.path], [list.path, list.path]] {
            try Self.expectOwnTextsBeyondTheirRecords(SimulationSession(contentRulesPaths: lists), trace.path)
        }
    }

    /// Each request line's texts are its result's texts (`hiddenSelectors`, `notifications`,
    /// each once in rule order) without those of the shared record it names.
    static func expectOwnTextsBeyondTheirRecords(_ session: SimulationSession, _ trace: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let text = try json(session, [trace], oneAtATime: false).text
        var kept = session
        kept.keepsAllResults = true
        let results = try kept.run(paths: [trace]).report.all
        var records: [String: (hidden: Set<String>, notifications: Set<String>)] = [:]
        var requests = 0, own = 0
        for line in text.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let hidden = try #require(object["hiddenSelectors"] as? [String]), notifications = try #require(object["notifications"] as? [String])
            guard object["trace"] != nil else {
                records[try #require(object["shared"] as? String)] = (Set(hidden), Set(notifications))
                continue
            }
            let result = results[requests]
            requests += 1
            let record = (object["shared"] as? String).flatMap { records[$0] } ?? ([], [])
            #expect(hidden == result.hiddenSelectors.filter { !record.hidden.contains($0) }, "line \(result.entry.line)", sourceLocation: sourceLocation)
            #expect(notifications == result.notifications.filter { !record.notifications.contains($0) }, "line \(result.entry.line)", sourceLocation: sourceLocation)
            own += hidden.count + notifications.count
        }
        #expect(requests == results.count, sourceLocation: sourceLocation)
        #expect(own > 0, "some lines list texts of their own", sourceLocation: sourceLocation)
    }
}

@Suite("JSON string bytes")
struct JSONStringBytesTests {
    static func quoted(_ string: String) -> String {
        var output: [UInt8] = []
        JSONStringBytes.append(quoting: string, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    @Test func everyEscapeIsWrittenAsJSONWantsIt() {
        #expect(Self.quoted("plain ascii, long enough for a word or two") == "\"plain ascii, long enough for a word or two\"")
        #expect(Self.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(Self.quoted("\n\r\t\u{8}\u{C}") == #""\n\r\t\b\f""#)
        #expect(Self.quoted("\u{0}\u{1F}\u{7F}") == #""\u0000\u001f\u007f""#)
        #expect(Self.quoted("line\u{2028}para\u{2029}end") == #""line\u2028para\u2029end""#)
        // Other characters whose UTF-8 starts with 0xE2 are copied.
        #expect(Self.quoted("€ → ✓ \u{2027}\u{202A}") == "\"€ → ✓ \u{2027}\u{202A}\"")
        #expect(Self.quoted("é日本🙂") == "\"é日本🙂\"")
        // An escape at every position of an eight-byte word.
        for position in 0..<17 {
            let text = String(repeating: "x", count: position) + "\"" + String(repeating: "y", count: 16 - position)
            #expect(Self.quoted(text) == "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\"")
        }
    }

    @Test func bytesThatAreNotUTF8AreReadAsAStringReadsThem() {
        let broken: [UInt8] = [0x61, 0xFF, 0x62, 0xE2, 0x80, 0x63]
        var output: [UInt8] = []
        broken.withUnsafeBufferPointer { JSONStringBytes.append(quotingRepairing: $0, to: &output) }
        #expect(String(decoding: output, as: UTF8.self) == Self.quoted(String(decoding: broken, as: UTF8.self)))
    }

    @Test func numbersAreWrittenInDecimal() {
        for value in [0, 7, 10, 99, 100, 123_456_789, -1, -42, Int.max, Int.min] {
            var output: [UInt8] = []
            JSONStringBytes.append(value, to: &output)
            #expect(String(decoding: output, as: UTF8.self) == String(value))
        }
    }

    /// `JSONValue` writes through the same escaping, pretty or not.
    @Test func aJSONValueSerializesAsBefore() {
        let value = JSONValue.object([("a", .array([.int(-3), .bool(true), .null, .string("x\ny")])), ("b", .object([])), ("c", .array([]))])
        #expect(value.serialized(pretty: false) == #"{"a":[-3,true,null,"x\ny"],"b":{},"c":[]}"#)
        #expect(value.serialized() == "{\n  \"a\": [\n    -3,\n    true,\n    null,\n    \"x\\ny\"\n  ],\n  \"b\": {},\n  \"c\": []\n}\n")
    }
}
