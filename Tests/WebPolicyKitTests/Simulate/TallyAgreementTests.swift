import Foundation
import Testing
import TestSupport
import URLFilter
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// A summary counts lines where they are decided and keeps only the failures (`Tally`); every
/// other output keeps a result for each line. Both must say the same: the same counts, and the
/// same failing lines with every field a report prints.
@Suite("Counted and materialised simulation agree")
struct TallyAgreementTests {
    static var traces: [String] {
        SimulateFixtureTests.traces + ["Tests/Fixtures/reporters/html/failing.trace"]
    }

    /// Everything the JSON output says of each failing line, and the counts.
    static func observed(_ outcome: SimulationSession.Outcome) -> (summary: String, failures: [String]) {
        var writer = SimulationJSONWriter()
        var failures: [String] = []
        for traceResults in outcome.report.traces {
            for result in traceResults.results where !result.passed {
                failures.append(writer.lines(for: result, trace: traceResults.path) + result.failures.joined(separator: "\n") + "\n" + result.reason)
            }
        }
        return (outcome.report.summary.jsonLine, failures)
    }

    @Test(arguments: traces)
    func aTraceCountsTheSameBothWays(path: String) throws {
        var materialised = SimulationSession()
        materialised.keepsAllResults = true
        var counted = SimulationSession()
        counted.keepsAllResults = false
        let all = Self.observed(try materialised.run(paths: [Repository.path(path)]))
        let tallied = Self.observed(try counted.run(paths: [Repository.path(path)]))
        #expect(tallied.summary == all.summary)
        #expect(tallied.failures == all.failures)
    }

    /// A trace long enough to be split into chunks on every core, with pages between, and
    /// expectations of which some fail: chunk boundaries must not change a count or a failure.
    @Test func aLongTraceSplitIntoChunksCountsTheSame() throws {
        let folder = try TemporaryFolder.make("tally")
        var text = "policy: \(Repository.path("policies/https-and-trackers.yaml"))\n"
        for page in 0..<400 {
            text += "page https://news\(page % 7).example.com/p\(page) expect=allow\n"
            text += "script https://tracker.example.net/t\(page).js expect=\(page % 3 == 0 ? "allow" : "block")\n"
            text += "image http://news.example.com/a\(page).png\n"
            for item in 0..<20 { text += "image https://cdn.example.org/\(page)/\(item).png expect=allow\n" }
        }
        let trace = folder.appendingPathComponent("long.trace")
        try text.write(to: trace, atomically: true, encoding: .utf8)
        var materialised = SimulationSession()
        materialised.keepsAllResults = true
        var counted = SimulationSession()
        counted.keepsAllResults = false
        let all = Self.observed(try materialised.run(paths: [trace.path]))
        let tallied = Self.observed(try counted.run(paths: [trace.path]))
        #expect(all.failures.count > 100, "some expectations fail")
        #expect(tallied.summary == all.summary)
        #expect(tallied.failures == all.failures)
    }

    /// Over bare lists a summary counts plain lines as they were read (`PlainLine`): the
    /// fixtures of several lists, and a long trace over a list of every kind of rule, with
    /// expectations of which many fail, across blocks and chunks.
    @Test(arguments: SimulateFixtureTests.listTraces)
    func aBareListTraceCountsTheSameBothWays(path: String) throws {
        let lists = try SimulateFixtureTests.lists(of: path)
        try Self.expectAgreement(lists: lists, trace: Repository.path(path))
    }

    @Test func aLongTraceOverABareListCountsTheSame() throws {
        let (list, trace) = try Self.longBareListTrace("tally-bare")
        try Self.expectAgreement(lists: [list], trace: trace, manyFail: true)
    }

    /// A simulator keeps its scratches from block to block and hands them to whichever chunk
    /// comes next: a run read in small blocks, and the same simulator's second run (each chunk
    /// starting from a scratch that remembers other pages), count what fresh simulators count.
    @Test func scratchesKeptFromBlockToBlockDecideAsFreshOnes() throws {
        let (list, trace) = try Self.longBareListTrace("tally-scratches")
        func tally(_ simulator: Simulator, blockLines: Int) throws -> Tally {
            simulator.tally(try TraceStream(path: trace, blockLines: blockLines))
        }
        let reused = try SimulationSession(contentRulesPath: list).bareSimulator()
        var oneCore = try SimulationSession(contentRulesPath: list).bareSimulator()
        oneCore.parallelism = 1
        let expected = try tally(oneCore, blockLines: TraceStream.blockLines)
        #expect(expected.failed > 1_000, "some expectations fail")
        for blockLines in [700, 4_096] {
            let counted = try tally(reused, blockLines: blockLines)
            #expect((counted.verdicts, counted.passed, counted.failed, counted.unchecked) == (expected.verdicts, expected.passed, expected.failed, expected.unchecked))
            #expect(counted.failures.map(\.entry.line) == expected.failures.map(\.entry.line))
        }
    }

    /// A new window that loads in the same view replaces the page, as a `page` line does: a
    /// chunk that starts after one inherits its page. Chunk boundaries fall after popups here,
    /// and the lines after each are blocked only on the popup's page.
    @Test func aPopupThatReplacesThePageCarriesAcrossChunks() throws {
        let folder = try TemporaryFolder.make("tally-popups")
        var text = "policy: \(Repository.path("Tests/Fixtures/simulate/navigation/NewWindowsSameView.yaml"))\n"
        // One line before the first page, so that the whole trace's chunk boundaries too fall
        // between a popup and the next page.
        text += "image https://cdn.example.net/before.png\n"
        for group in 0..<2_000 {
            text += "page https://www.shop.example.com/\(group)\n"
            text += "popup https://cart.shop.example.com/\(group) by=link\n"
            for item in 0..<(1 + group % 5) { text += "image https://cdn.example.net/promo\(item).png expect=block\n" }
        }
        let trace = folder.appendingPathComponent("popups.trace")
        try text.write(to: trace, atomically: true, encoding: .utf8)
        let policy = try #require(PolicyLoader().load(path: Repository.path("Tests/Fixtures/simulate/navigation/NewWindowsSameView.yaml")).policy)
        for parallelism in [1, 2, 3, 4] {
            var simulator = Simulator(policy: policy, publicSuffixList: .bundled())
            simulator.parallelism = parallelism
            let counted = simulator.tally(try TraceStream(path: trace.path, blockLines: 4_096))
            #expect(counted.failed == 0, "\(parallelism) cores: \(counted.failures.prefix(3).map(\.entry.line))")
            var materialised: [RequestResult] = []
            simulator.run(try TraceStream(path: trace.path, blockLines: 4_096)) { materialised.append($0) }
            #expect(materialised.filter { !$0.failures.isEmpty }.map(\.entry.line) == [], "\(parallelism) cores")
            // Read whole, not streamed: one block, split into chunks all the same.
            let (whole, problems) = TraceParser.parse(SourceFile(path: trace.path, text: text))
            #expect(problems.isEmpty)
            #expect(simulator.tally(whole).failed == 0, "\(parallelism) cores, read whole")
        }
    }

    /// A list of every kind of rule, and a trace of 1,500 pages over it whose expectations
    /// often fail.
    static func longBareListTrace(_ name: String) throws -> (list: String, trace: String) {
        let folder = try TemporaryFolder.make(name)
        let list = folder.appendingPathComponent("list.json")
        try #"""
        [
          {"trigger": {"url-filter": "/ads/"}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "^http://legacy\\."}, "action": {"type": "make-https"}},
          {"trigger": {"url-filter": "tracker", "load-type": ["third-party"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "widget", "resource-type": ["script"], "if-domain": ["*news1.example"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": ".*", "if-domain": ["*news2.example"]}, "action": {"type": "css-display-none", "selector": ".ad"}},
          {"trigger": {"url-filter": "/ads/ok", "unless-top-url": ["^https://www\\.news3"]}, "action": {"type": "ignore-previous-rules"}},
          {"trigger": {"url-filter": "frame", "resource-type": ["document"], "load-context": ["child-frame"]}, "action": {"type": "block"}}
        ]
        """#.write(to: list, atomically: true, encoding: .utf8)
        var random = SplitMix64(state: 7)
        let types = ["script", "image", "fetch", "child-document", "ping", "style-sheet", "popup"]
        let verdicts = ["allow", "block", "upgrade"]
        var text = "image https://before.example/any-page-yet.png expect=allow\n"
        for page in 0..<1_500 {
            text += "page https://www.news\(page % 5).example/p\(page)\n"
            for item in 0..<25 {
                let path = ["ads/x", "ads/ok", "tracker.js", "widget.js", "frame.html", "img.png"][Int(random.next() % 6)]
                let host = ["www.news\(page % 5).example", "cdn.tracker.example", "legacy.example", "LEGACY.example"][Int(random.next() % 4)]
                let scheme = random.next() % 3 == 0 ? "http" : "https"
                let expect = random.next() % 4 == 0 ? " expect=\(verdicts[Int(random.next() % 3)])" : ""
                text += "\(types[Int(random.next() % UInt64(types.count))]) \(scheme)://\(host)/\(page)/\(item)/\(path)\(expect)\n"
            }
        }
        let trace = folder.appendingPathComponent("long.trace")
        try text.write(to: trace, atomically: true, encoding: .utf8)
        return (list.path, trace.path)
    }

    static func expectAgreement(lists: [String], trace: String, manyFail: Bool = false, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        var materialised = SimulationSession(contentRulesPaths: lists)
        materialised.keepsAllResults = true
        var counted = SimulationSession(contentRulesPaths: lists)
        counted.keepsAllResults = false
        let all = observed(try materialised.run(paths: [trace]))
        let tallied = observed(try counted.run(paths: [trace]))
        if manyFail { #expect(all.failures.count > 1_000, "some expectations fail", sourceLocation: sourceLocation) }
        #expect(tallied.summary == all.summary, sourceLocation: sourceLocation)
        // The first failure that differs, not thousands of them.
        #expect(tallied.failures.count == all.failures.count, sourceLocation: sourceLocation)
        if let (counted, whole) = zip(tallied.failures, all.failures).first(where: { $0 != $1 }) {
            Issue.record("counted: \(counted)\nper line: \(whole)", sourceLocation: sourceLocation)
        }
    }
}
