import Foundation
import Testing
import TestSupport
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// The same requests written as a proxy log writes them — every subresource line carrying its
/// page as `top=URL` — get the same verdicts as under their page line, line for line; lines
/// that name their iframe (`frame=URL`) count as they are decided one by one. Counted verdicts
/// (a summary over bare lists) take those lines on their own page, worked out once per page.
@Suite("Trace shapes agree")
struct TraceShapeAgreementTests {
    /// Every line after a page line given that page as `top=`.
    static func topForm(_ text: String) -> String {
        var page: Substring?
        return text.split(separator: "\n").map { line -> String in
            if line.hasPrefix("page ") {
                page = line.dropFirst(5).split(separator: " ").first
                return String(line)
            }
            guard let page else { return String(line) }
            // Before `expect=`, as a log writes its fields: any order is the same line.
            var fields = line.split(separator: " ").map(String.init)
            fields.insert("top=\(page)", at: min(2, fields.count))
            return fields.joined(separator: " ")
        }.joined(separator: "\n") + "\n"
    }

    /// The two lines after each child document written as that iframe's loads.
    static func frameForm(_ text: String) -> String {
        var frame: Substring?
        var left = 0
        return text.split(separator: "\n").map { line -> String in
            var written = String(line)
            if line.hasPrefix("page ") { left = 0 }
            if left > 0, let frame {
                written += " frame=\(frame)"
                left -= 1
            }
            if line.hasPrefix("child-document ") {
                frame = line.split(separator: " ").dropFirst().first
                left = 2
            }
            return written
        }.joined(separator: "\n") + "\n"
    }

    static func verdicts(lists: [String], trace: String) throws -> [Int: Verdict] {
        var session = SimulationSession(contentRulesPaths: lists)
        session.keepsAllResults = true
        var verdicts: [Int: Verdict] = [:]
        for traceResults in try session.run(paths: [trace]).report.traces {
            for result in traceResults.results { verdicts[result.entry.line] = result.verdict }
        }
        return verdicts
    }

    @Test func theTopFormGivesThePageLineFormsVerdictsLineForLine() throws {
        let (list, trace) = try TallyAgreementTests.longBareListTrace("shape-top")
        let shaped = (trace as NSString).deletingLastPathComponent + "/top.trace"
        try Self.topForm(try String(contentsOfFile: trace, encoding: .utf8)).write(toFile: shaped, atomically: true, encoding: .utf8)
        let pageForm = try Self.verdicts(lists: [list], trace: trace)
        let topForm = try Self.verdicts(lists: [list], trace: shaped)
        #expect(pageForm.count > 30_000 && pageForm.count == topForm.count)
        let differing = pageForm.keys.sorted().filter { pageForm[$0] != topForm[$0] }
        #expect(differing.isEmpty, "lines \(differing.prefix(5)) differ")
        // Counted (a summary, the lines taken as they were read) as decided one by one.
        try TallyAgreementTests.expectAgreement(lists: [list], trace: shaped, manyFail: true)
    }

    @Test func linesThatNameTheirFrameCountAsTheyAreDecided() throws {
        let (list, trace) = try TallyAgreementTests.longBareListTrace("shape-frame")
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        // Tops not canonical as written (an uppercase host) are decided as any line is.
        let uppercase = Self.topForm(text).replacingOccurrences(of: "top=https://www.news1", with: "top=https://WWW.news1")
        for (name, shaped) in [("frame", Self.frameForm(text)), ("top-and-frame", Self.frameForm(Self.topForm(text))), ("uppercase-top", uppercase)] {
            let path = (trace as NSString).deletingLastPathComponent + "/\(name).trace"
            try shaped.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(shaped.contains(" frame=https://") || shaped.contains("top=https://WWW."))
            try TallyAgreementTests.expectAgreement(lists: [list], trace: path, manyFail: true)
        }
    }

    /// A line with `top=` and `frame=` is plain, whatever its URLs (checked once for the
    /// lines that share them); one with any other key is parsed as any line is.
    @Test func aPlainLineKeepsWhereItsTopAndFrameAre() throws {
        let line = "script https://cdn.example.net/a.js frame=https://widget.example.org/embed top=https://news.example.com/p expect=block"
        let plain = try #require(line.withCString { pointer in
            TraceParser.parsePlainLine(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: line.utf8.count), number: 3, offset: 10)
        })
        #expect(plain.namesItsContext && plain.expect == .block)
        let bytes = Array(line.utf8)
        #expect(String(decoding: bytes[(Int(plain.topStart) - 10)..<(Int(plain.topEnd) - 10)], as: UTF8.self) == "https://news.example.com/p")
        #expect(String(decoding: bytes[(Int(plain.frameStart) - 10)..<(Int(plain.frameEnd) - 10)], as: UTF8.self) == "https://widget.example.org/embed")
        for notPlain in ["script https://cdn.example.net/a.js top=https://a.example/ top=https://b.example/", "script https://cdn.example.net/a.js top=",
                         "script https://cdn.example.net/a.js method=POST"] {
            let parsed = notPlain.withCString { pointer in
                TraceParser.parsePlainLine(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: notPlain.utf8.count), number: 1, offset: 0)
            }
            #expect(parsed == nil, "\(notPlain)")
        }
    }
}
