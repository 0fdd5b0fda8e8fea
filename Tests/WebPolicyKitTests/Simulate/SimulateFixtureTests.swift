import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// Every trace under `Tests/Fixtures/simulate` (WebKit's own content-extension tests, ported:
/// the rules as a policy, the requests as a trace) and every example policy's trace must pass.
@Suite("Simulate fixtures")
struct SimulateFixtureTests {
    static var traces: [String] {
        var paths: [String] = []
        let base = Repository.path("Tests/Fixtures/simulate")
        let enumerator = FileManager.default.enumerator(atPath: base)
        while let entry = enumerator?.nextObject() as? String {
            // `lists/` holds bare content-blocker lists, simulated by `listTraces`.
            if entry.hasSuffix(".trace") && !entry.hasPrefix("lists/") { paths.append("Tests/Fixtures/simulate/" + entry) }
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

    /// Traces of bare lists (`Tests/Fixtures/simulate/lists/*/`): a `# lists: A.json B.json`
    /// comment names the lists, given to simulate in that order as `--content-rules` is.
    /// The lists a bare-list fixture trace is simulated over: its `# lists:` header, each
    /// beside the trace.
    static func lists(of path: String) throws -> [String] {
        let text = try #require(Repository.read(path))
        let header = try #require(text.split(separator: "\n").first { $0.hasPrefix("# lists: ") })
        let folder = (Repository.path(path) as NSString).deletingLastPathComponent
        return header.dropFirst("# lists: ".count).split(separator: " ").map { folder + "/" + $0 }
    }

    static var listTraces: [String] {
        var paths: [String] = []
        let base = Repository.path("Tests/Fixtures/simulate/lists")
        let enumerator = FileManager.default.enumerator(atPath: base)
        while let entry = enumerator?.nextObject() as? String {
            if entry.hasSuffix(".trace") { paths.append("Tests/Fixtures/simulate/lists/" + entry) }
        }
        return paths.sorted()
    }

    @Test(arguments: listTraces)
    func listTracePasses(path: String) throws {
        let lists = try Self.lists(of: path)
        #expect(lists.count >= 2)
        let outcome = try SimulationSession(contentRulesPaths: lists).run(paths: [Repository.path(path)])
        #expect(outcome.inputProblems.diagnostics.isEmpty, "\(outcome.inputProblems.diagnostics.map(\.message))")
        #expect(outcome.report.failed == 0, "\(outcome.report.human(verbose: false))")
        #expect(outcome.report.unchecked == 0)
        // Each list on its own matters: the lists merged into one give other answers.
        let merged = try SimulationSession(contentRulesPaths: [lists.last!]).run(paths: [Repository.path(path)])
        #expect(merged.report.failed > 0, "\(path) would pass with its last list alone: it tests nothing about several lists")
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

/// Each example policy's trace exercises every one of its rules: each content rule matches
/// some request, each allowlist entry and interception rule decides one, each cookie is sent.
@Suite("Example policy traces cover their policies")
struct PolicyTraceCoverageTests {
    static var policies: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: Repository.path("policies"))) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
    }

    @Test(arguments: policies)
    func everyRuleIsExercised(name: String) throws {
        let trace = Repository.path("policies/" + name.replacingOccurrences(of: ".yaml", with: ".trace"))
        #expect(FileManager.default.fileExists(atPath: trace), "policies/\(name) has no trace")
        let outcome = try SimulationSession().run(paths: [trace])
        let results = outcome.report.all
        let policy = try #require(PolicyLoader().load(path: Repository.path("policies/" + name)).policy)
        let matched = Set(results.flatMap { $0.matchedRules.compactMap(\.location) })
        let decided = Set(results.compactMap { $0.decidedBy?.location })
        let sent = Set(results.flatMap(\.cookies))
        for rule in policy.contentRules {
            #expect(matched.contains(rule.location), "\(name): content rule at line \(rule.location.range.start.line) matches no request")
        }
        for entry in policy.httpAllowlist {
            #expect(decided.contains(entry.location), "\(name): http-allowlist entry at line \(entry.location.range.start.line) admits no request")
        }
        for entry in policy.schemeAllowlist {
            #expect(decided.contains(entry.location), "\(name): scheme-allowlist entry at line \(entry.location.range.start.line) admits no request")
        }
        for rule in policy.interception {
            #expect(decided.contains(rule.location), "\(name): interception rule at line \(rule.location.range.start.line) handles no request")
        }
        for cookie in policy.cookies {
            #expect(sent.contains(cookie.name.value), "\(name): cookie \(cookie.name.value) is sent with no request")
        }
    }
}
