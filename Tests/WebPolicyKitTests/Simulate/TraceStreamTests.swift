import Foundation
import Testing
import URLFilter
@testable import WebPolicyKit
@testable import WebPolicyRuntime
import TestSupport

/// A streamed trace must read exactly as the whole file parses (`TraceParser.parse`): same
/// entries, same problems at the same places, whatever the block size, the read size and the
/// line breaks — including breaks split between two reads.
@Suite("Streamed traces")
struct TraceStreamTests {
    static let breaks = ["\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"]
    static let lines = [
        "page https://www.example.com/a", "script https://ads.example.net/t.js?x=1", "image http://legacy.example.com/a.png expect=allow",
        "", "# a comment", "fetch https://api.example.com/v1 method=POST", "   ", "font https://fonts.example.org/f.woff2 # trailing",
        "scrpt https://x.example/", "image https://x.example/ colour=red", "ping https://x.example/p#frag", "https://bare.example/x",
        "child-document https://frame.example/ top=https://top.example/", "style-sheet https://münchen.example/ü.css",
    ]

    static func randomTrace(_ random: inout SplitMix64, lines count: Int) -> String {
        var text = ""
        for _ in 0..<count {
            text += lines[Int(random.next() % UInt64(lines.count))] + breaks[Int(random.next() % UInt64(breaks.count))]
        }
        return text
    }

    static func describe(_ entry: TraceEntry) -> String {
        "\(entry.line) \(entry.typeName) \(entry.url) \(entry.method ?? "-") \(entry.expect?.rawValue ?? "-") \(entry.top?.description ?? "-")"
    }

    static func streamed(_ path: String, blockLines: Int, readSize: Int) throws -> (entries: [String], problems: [String]) {
        let stream = try TraceStream(path: path, blockLines: blockLines, readSize: readSize)
        stream.readHeader()
        var entries: [String] = []
        while let block = stream.nextEntries() { entries += block.map(describe) }
        return (entries, stream.problems.map { "\($0.range.start.line):\($0.range.start.column) \($0.message)" })
    }

    @Test(arguments: [(1, 1), (3, 7), (64, 5), (16_384, 1 << 20)])
    func aStreamedTraceReadsAsTheWholeFile(blockLines: Int, readSize: Int) throws {
        var random = SplitMix64(state: UInt64(blockLines * 31 + readSize))
        for round in 0..<8 {
            let text = Self.randomTrace(&random, lines: 40 + round * 25)
            let path = TemporaryFolder.location("stream", extension: "trace").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (whole, problems) = TraceParser.parse(SourceFile(path: path, text: text))
            let stream = try Self.streamed(path, blockLines: blockLines, readSize: readSize)
            let expectedProblems = problems.map { "\($0.range.start.line):\($0.range.start.column) \($0.message)" }
            #expect(stream.problems == expectedProblems, "round \(round)")
            // Entries stop at the first problem when streamed; before it they are the same.
            let firstProblemLine = problems.map(\.range.start.line).min() ?? Int.max
            let expected = whole.entries.filter { $0.line < firstProblemLine }.map(Self.describe)
            #expect(Array(stream.entries.prefix(expected.count)) == expected, "round \(round)")
            if problems.isEmpty { #expect(stream.entries == expected) }
        }
    }

    /// Every field of an entry a decision or a report reads.
    static func describeFully(_ entry: TraceEntry) -> String {
        "\(describe(entry)) \(entry.kind) \(entry.resourceType) \(entry.urlRange) \(entry.expectRange.map { "\($0)" } ?? "-") \(entry.fieldsEnd) \(entry.isPlain)"
    }

    /// Lines a counted simulation keeps as they were read, and some like them that it must not
    /// (a capital in the host, an empty path, a ping, a port, a page).
    static let plainLines = [
        "script https://ads.example.net/t.js", "image http://legacy.example.com/a.png expect=block", "child-document https://frame.example/x#f",
        "fetch https://api.example.com/v1?q=1#top expect=allow", "image https://CDN.example.com/a.png", "script https://cdn.example.com",
        "ping https://x.example/p", "media http://x.example:8080/m.mp4", "page https://www.example.com/a", "image  https://x.example/two-spaces.png\texpect=upgrade",
    ]

    /// With plain lines kept (a counted simulation over bare lists), a stream hands out the same
    /// lines, once each is made an entry again, in the same order, with the same problems.
    @Test(arguments: [(1, 1), (3, 7), (64, 5), (16_384, 1 << 20)])
    func plainLinesKeptAsReadAreTheSameEntries(blockLines: Int, readSize: Int) throws {
        var random = SplitMix64(state: UInt64(blockLines * 17 + readSize))
        var keptInAll = 0
        for round in 0..<8 {
            var text = ""
            for _ in 0..<(60 + round * 300) {
                // Half the rounds have other lines (problems, comments, options) among them.
                let pool = round % 2 == 0 && random.next() % 4 == 0 ? Self.lines : Self.plainLines
                text += pool[Int(random.next() % UInt64(pool.count))] + (random.next() % 2 == 0 ? "\n" : "\r\n")
            }
            let path = TemporaryFolder.location("plain", extension: "trace").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            func read(keepingPlain: Bool) throws -> (entries: [String], problems: [String], kept: Int) {
                let stream = try TraceStream(path: path, blockLines: blockLines, readSize: readSize)
                stream.readHeader()
                stream.keepsPlainLines = keepingPlain
                var entries: [String] = []
                var kept = 0
                while let runs = stream.nextRuns() {
                    for run in runs {
                        kept += run.plain.count
                        entries += run.materialised().map(Self.describeFully)
                    }
                }
                return (entries, stream.problems.map { "\($0.range.start.line):\($0.range.start.column) \($0.message)" }, kept)
            }
            let asEntries = try read(keepingPlain: false)
            let asPlain = try read(keepingPlain: true)
            #expect(asEntries.kept == 0)
            #expect(asPlain.entries == asEntries.entries, "round \(round)")
            #expect(asPlain.problems == asEntries.problems, "round \(round)")
            keptInAll += asPlain.kept
        }
        #expect(keptInAll > 500, "plain lines were kept: \(keptInAll)")
    }

    /// Which lines are plain: a subresource checked once, with a URL canonical as written.
    @Test func onlyPlainSubresourceLinesWithCanonicalURLsAreKept() {
        let kept = Self.plainLines.map { line in
            Array(line.utf8).withUnsafeBufferPointer { TraceParser.parsePlainLine($0, number: 1, offset: 0) != nil }
        }
        #expect(kept == [true, true, true, true, false, false, false, false, false, true])
        let line = Array("fetch https://api.example.com/v1?q=1#top expect=allow".utf8)
        let plain = line.withUnsafeBufferPointer { TraceParser.parsePlainLine($0, number: 3, offset: 100) }
        #expect(plain.map { [$0.requestStart, $0.requestEnd, $0.hostStart, $0.hostEnd, $0.lineStart, $0.lineEnd] } == [106, 136, 114, 129, 100, 153])
        #expect(plain?.expect == .allow)
        #expect(plain?.isUpgradable == false)
    }

    @Test func aTraceOfManyBlocksKeepsItsOrderAndLineNumbers() throws {
        let text = (1...50_000).map { "image https://x\($0 % 97).example/\($0).png" }.joined(separator: "\n") + "\n"
        let path = TemporaryFolder.location("many", extension: "trace").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for (blockLines, readSize) in [(1_000, 4_096), (16_384, 1 << 20), (7, 100_000), (100, 1 << 20)] {
            let stream = try Self.streamed(path, blockLines: blockLines, readSize: readSize)
            #expect(stream.problems.isEmpty, "\(stream.problems.prefix(3))")
            #expect(stream.entries == (1...50_000).map { "\($0) image https://x\($0 % 97).example/\($0).png - - -" })
        }
    }

    /// A shard cut from a larger trace names where it was cut from (docs/scale.md): its lines
    /// are numbered from there, and its messages name that trace, whatever the block size.
    @Test(arguments: [1, 2, 16_384])
    func anOriginLineNumbersAShardAsTheTraceItWasCutFrom(blockLines: Int) throws {
        let text = "origin: logs/day 1.trace:1000\npage https://a.example/\n\nimage https://a.example/x.png\nimage htps//bad\n"
        let path = TemporaryFolder.location("shard", extension: "trace").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stream = try TraceStream(path: path, blockLines: blockLines, readSize: 7)
        stream.readHeader()
        var entries: [String] = []
        while let block = stream.nextEntries() { entries += block.map(Self.describe) }
        #expect(stream.displayPath == "logs/day 1.trace")
        #expect(entries == ["1000 page https://a.example/ - - -", "1002 image https://a.example/x.png - - -"])
        #expect(stream.problems.map { "\($0.range.start.line):\($0.range.start.column)" } == ["1003:7"])
        #expect(String(stream.problemSource.line(1003)) == "image htps//bad")
    }

    @Test(arguments: ["origin: day.trace", "origin: :5", "origin: day.trace:0", "origin: day.trace:x", "origin:"])
    func aMalformedOriginIsAnErrorAtTheFirstLine(origin: String) throws {
        let stream = try Self.streamed(try Self.write(origin + "\npage https://a.example/\n"), blockLines: 16_384, readSize: 1 << 20)
        #expect(stream.entries.isEmpty)
        #expect(stream.problems == ["1:1 the origin: line names the trace and the line the next line is: origin: TRACE:LINE"])
    }

    @Test func anOriginAfterTheFirstLineIsAnError() throws {
        let stream = try Self.streamed(try Self.write("page https://a.example/\norigin: day.trace:5\n"), blockLines: 16_384, readSize: 1 << 20)
        #expect(stream.problems == ["2:1 an origin: line is the first line of the input, or nowhere"])
    }

    /// A shard of an empty partition may be its origin line alone: no requests, no error.
    @Test func anOriginAloneIsAShardWithoutRequests() throws {
        let stream = try Self.streamed(try Self.write("origin: day.trace:5\n"), blockLines: 16_384, readSize: 1 << 20)
        #expect(stream.entries.isEmpty && stream.problems.isEmpty)
        let empty = try Self.streamed(try Self.write(""), blockLines: 16_384, readSize: 1 << 20)
        #expect(empty.problems.count == 1 && empty.problems[0].hasSuffix(" is empty"))
    }

    /// A NUL or a byte that is not UTF-8 in a block after the first (when the reader may skip
    /// the second pass over a block it saw nothing but printable ASCII in) still ends the trace
    /// with its error at its line and column, wherever the blocks and reads cut the trace.
    @Test(arguments: [(1, 3), (2, 1 << 20), (4, 7), (16_384, 5)])
    func aBadByteInALaterBlockIsFoundWhereItIs(blockLines: Int, readSize: Int) throws {
        let head = Array(("page https://a.example/\n" + String(repeating: "image https://a.example/x\n", count: 5)).utf8)
        for (bad, problem) in [(UInt8(0), "7:26 "), (UInt8(0xE9), "7:26 ")] {
            let bytes = head + Array("image https://a.example/x".utf8) + [bad] + Array("y\nimage https://a.example/z\n".utf8)
            let path = TemporaryFolder.location("bad", extension: "trace").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let stream = try Self.streamed(path, blockLines: blockLines, readSize: readSize)
            #expect(stream.problems.count == 1 && stream.problems[0].hasPrefix(problem), "\(bad): \(stream.problems)")
            #expect(stream.problems.first?.contains(bad == 0 ? "NUL byte" : "not valid UTF-8") == true, "\(stream.problems)")
            #expect(stream.entries.count <= 6, "no entry after the bad line")
        }
    }

    static func write(_ text: String) throws -> String {
        let path = TemporaryFolder.location("trace", extension: "trace").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
