import Foundation
import Testing
import TestSupport
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
}
