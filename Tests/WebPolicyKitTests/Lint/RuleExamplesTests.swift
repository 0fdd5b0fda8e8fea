import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// The one generic test that runs every rule's examples (SwiftLint's `verifyRule`): failing
/// examples must produce this rule's diagnostics exactly at their `↓` markers and nothing from
/// the loader; passing examples must produce nothing at all. Each example also runs with a
/// non-ASCII comment line in front, which must move every diagnostic down one line and nowhere else.
@Suite("Rule examples")
struct RuleExamplesTests {
    static let ids = BuiltInRules.all.map { $0.description.id }

    private func rule(_ id: String) -> any LintRule.Type {
        BuiltInRules.all.first { $0.description.id == id }!
    }

    private func location(of example: Example) -> Testing.SourceLocation {
        Testing.SourceLocation(fileID: "WebPolicyKit/\((example.sourceFile as NSString).lastPathComponent)", filePath: example.sourceFile, line: example.sourceLine, column: 1)
    }

    @Test(arguments: ids)
    func failingExamplesTriggerAtTheirMarkers(id: String) {
        let rule = rule(id)
        for example in rule.description.failing {
            #expect(!example.markedPositions.isEmpty, "a failing example needs a ↓ marker", sourceLocation: location(of: example))
            for (prefix, shift) in [("", 0), ("# ünïcödé ✓ 日本語\n", 1)] {
                let report = Linter(rules: [rule]).lint(text: prefix + example.policyText, path: "example.yaml")
                let others = report.diagnostics.filter { $0.ruleID != id }
                #expect(others.isEmpty, "unexpected diagnostics: \(others.map(\.message))", sourceLocation: location(of: example))
                let found = report.diagnostics.filter { $0.ruleID == id }.map(\.location.range.start)
                let expected = example.markedPositions.map { SourcePosition(line: $0.line + shift, column: $0.column) }
                #expect(found == expected, "diagnostics at \(found), markers at \(expected)", sourceLocation: location(of: example))
            }
        }
    }

    /// What a rationale may cite: a standard, Apple's documentation or review rules, WebKit's
    /// source or behaviour, the Public Suffix List, OWASP's Mobile Application Security
    /// Testing Guide, or a field report from the seeds.
    static let sources = ["RFC", "Apple", "WebKit", "WHATWG", "W3C", "CSS", "Public Suffix", "App Store", "JavaScriptCore", "ECMA", "OpenRadar", "OWASP MASTG", "seed"]

    @Test(arguments: ids)
    func rationaleNamesItsSource(id: String) {
        let rationale = rule(id).description.rationale
        #expect(Self.sources.contains { rationale.contains($0) }, "the rationale of \(id) names none of \(Self.sources)")
    }

    @Test(arguments: ids)
    func fixesResolveTheirFindings(id: String) {
        // Applying every fix a failing example offers must leave a policy that loads and that
        // the rule no longer reports where it was fixed.
        let rule = rule(id)
        for example in rule.description.failing {
            let report = Linter(rules: [rule]).lint(text: example.policyText, path: "example.yaml")
            let fixes = report.diagnostics.compactMap(\.fix)
            guard !fixes.isEmpty, let file = report.sources["example.yaml"] else { continue }
            let (fixed, _) = FixApplier.apply(fixes, to: file)
            let after = Linter(rules: [rule]).lint(text: fixed, path: "example.yaml")
            let fixedBefore = report.diagnostics.filter { $0.fix != nil }.count
            let remaining = after.diagnostics.filter { $0.ruleID == id }.count
            #expect(after.diagnostics.allSatisfy { $0.ruleID == id }, "the fixed policy has new problems: \(after.diagnostics.map(\.message))", sourceLocation: location(of: example))
            #expect(remaining == report.diagnostics.count - fixedBefore, "fixes left \(remaining) findings:\n\(fixed)", sourceLocation: location(of: example))
        }
    }

    @Test(arguments: ids)
    func passingExamplesDoNotTrigger(id: String) {
        let rule = rule(id)
        for example in rule.description.passing {
            let report = Linter(rules: [rule]).lint(text: example.policyText, path: "example.yaml")
            #expect(report.diagnostics.isEmpty, "unexpected: \(report.diagnostics.map { "\($0.location.start) \($0.ruleID): \($0.message)" })", sourceLocation: location(of: example))
        }
    }

    @Test(arguments: ids)
    func passingExamplesAreCleanUnderEveryRule(id: String) {
        // A rule's good example must not be bad style elsewhere: docs teach by it.
        for example in rule(id).description.passing {
            let report = Linter().lint(text: example.policyText, path: "example.yaml")
            let unexpected = report.diagnostics.filter { !example.alsoReportedBy.contains($0.ruleID) }
            #expect(unexpected.isEmpty, "unexpected: \(unexpected.map { "\($0.ruleID): \($0.message)" })", sourceLocation: location(of: example))
            for companion in example.alsoReportedBy {
                #expect(report.diagnostics.contains { $0.ruleID == companion }, "\(companion) was expected to report too", sourceLocation: location(of: example))
            }
        }
    }
}

@Suite("Rule registry")
struct RuleRegistryTests {
    @Test func everyRuleHasExamplesAndAWellFormedID() {
        for rule in BuiltInRules.descriptions {
            #expect(!rule.failing.isEmpty && !rule.passing.isEmpty, "\(rule.id) needs failing and passing examples")
            #expect(rule.id.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression) != nil, "\(rule.id) is not kebab-case")
            #expect(!rule.summary.isEmpty && !rule.rationale.isEmpty)
        }
    }

    @Test func idsAreUniqueAcrossRulesAndLoaderChecks() {
        let ids = BuiltInRules.descriptions.map(\.id) + LoaderCheck.allCases.map(\.id) + CompileCheck.allCases.map(\.id) + ImportCheck.allCases.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test func everyRuleFileIsRegistered() throws {
        let rulesFolder = Repository.path("Sources/WebPolicyKit/Lint/Rules")
        let enumerator = FileManager.default.enumerator(atPath: rulesFolder)
        var declared: [String] = []
        while let entry = enumerator?.nextObject() as? String {
            guard entry.hasSuffix("Rule.swift") else { continue }
            declared.append(((entry as NSString).lastPathComponent as NSString).deletingPathExtension)
        }
        let registered = BuiltInRules.all.map { String(describing: $0) }
        #expect(declared.sorted() == registered.sorted())
        #expect(Set(registered).count == registered.count, "a rule is registered twice")
    }
}

/// `content-rule-limit`'s advice speaks of the target as it is: raising it helps below 15 only.
@Suite("content-rule-limit's hint")
struct ContentRuleLimitHintTests {
    @Test func onlyATargetBelowFifteenIsToldToRaiseIt() {
        #expect(ContentRuleLimitRule.hint(target: OSVersion(14), limit: 50_000).contains("raise target.ios to 15"))
        #expect(!ContentRuleLimitRule.hint(target: OSVersion(16), limit: 150_000).contains("raise target.ios"))
        #expect(ContentRuleLimitRule.hint(target: OSVersion(16), limit: 150_000).contains("150,000 rules a list is WebKit's limit on every iOS from 15 on"))
    }
}
