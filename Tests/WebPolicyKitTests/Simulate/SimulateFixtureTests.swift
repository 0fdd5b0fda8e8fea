import Foundation
import Testing
@testable import WebPolicyKit

/// Every trace under `Tests/Fixtures/simulate` (WebKit's own content-extension tests, ported:
/// the rules as a policy, the requests as a trace) and every example policy's trace must pass.
@Suite("Simulate fixtures")
struct SimulateFixtureTests {
    static var traces: [String] {
        var paths: [String] = []
        let base = Repository.path("Tests/Fixtures/simulate")
        let enumerator = FileManager.default.enumerator(atPath: base)
        while let entry = enumerator?.nextObject() as? String {
            if entry.hasSuffix(".trace") { paths.append("Tests/Fixtures/simulate/" + entry) }
        }
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: Repository.path("policies"))) ?? [] where entry.hasSuffix(".trace") {
            paths.append("policies/" + entry)
        }
        return paths.sorted()
    }

    @Test(arguments: traces)
    func tracePasses(path: String) throws {
        let outcome = try SimulationSession().run(paths: [Repository.path(path)])
        #expect(outcome.inputProblems.diagnostics.isEmpty, "\(outcome.inputProblems.diagnostics.map(\.message))")
        #expect(outcome.policyFindings.count(.error) == 0)
        let report = outcome.report
        #expect(report.failed == 0, "\(report.human(verbose: false))")
        #expect(report.unchecked == 0, "every line of a fixture states what it expects")
    }

    @Test func atLeastFortyPortedWebKitChecksCoverTheRequiredFeatures() throws {
        let webkit = Self.traces.filter { $0.contains("/webkit/") }
        let outcome = try SimulationSession().run(paths: webkit.map(Repository.path))
        #expect(outcome.report.passed >= 40)
        let names = webkit.map { ($0 as NSString).lastPathComponent }
        for required in ["IgnorePreviousRulesInEachList.trace", "ResourceOrLoadTypeMatchingEverything.trace", "DomainTriggers.trace",
                         "UnlessDomainTriggers.trace", "LoadType.trace", "ResourceAndLoadType.trace", "MakeHTTPS.trace"] {
            #expect(names.contains(required))
        }
    }
}
