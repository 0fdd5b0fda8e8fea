import Foundation
import Testing
import TestSupport
import WebPolicyAudit
import WebPolicyAuditSwift
import WebPolicyKit
import WebPolicyRuntime

/// Every audit rule's example apps, audited under their policies: the failing ones must be
/// reported exactly at their `↓` markers (and by no rule at any other place), the passing
/// ones not at all. docs/rules.md shows the same examples.
@Suite struct AuditRuleExampleTests {
    @Test(arguments: AuditRules.descriptions.map(\.id))
    func examplesHoldForRule(_ id: String) throws {
        let rule = try #require(AuditRules.descriptions.first { $0.id == id })
        #expect(!rule.codeExamples.isEmpty, "\(id) has no examples")
        #expect(rule.codeExamples.contains { $0.triggers }, "\(id) has no example that triggers it")
        #expect(rule.codeExamples.contains { !$0.triggers }, "\(id) has no example that passes")
        for example in rule.codeExamples {
            let result = try AuditHarness.audit(example)
            let found = result.diagnostics.filter { $0.ruleID == id }
            let got = found.map { "\($0.location.path):\($0.location.range.start.line):\($0.location.range.start.column)" }.sorted()
            let want = example.triggers ? result.markers.sorted() : []
            #expect(got == want, "\(id) example at \(example.sourceFile):\(example.sourceLine): expected \(want), got \(got): \(found.map(\.message))")
        }
    }
}
