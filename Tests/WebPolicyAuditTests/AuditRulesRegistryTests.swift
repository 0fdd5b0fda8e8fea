import Foundation
import Testing
import WebPolicyAudit
import WebPolicyKit
import WebPolicyRuntime

/// The audit's rules are listed once, their ids apart from lint's, and docs/rules.md (lint's
/// and the audit's rules, as `webpolicy rules --format markdown` prints them) is fresh.
@Suite struct AuditRulesRegistryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyAuditRuleFileIsRegistered() throws {
        let folder = Self.root.appendingPathComponent("Sources/WebPolicyAudit/Rules").path
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var declared: [String] = []
        while let entry = enumerator?.nextObject() as? String {
            guard entry.hasSuffix("Rule.swift"), !entry.hasSuffix("AuditRule.swift") else { continue }
            declared.append(((entry as NSString).lastPathComponent as NSString).deletingPathExtension)
        }
        let registered = AuditRules.all.map { String(describing: $0) }
        #expect(declared.sorted() == registered.sorted())
        #expect(Set(registered).count == registered.count, "an audit rule is registered twice")
    }

    @Test func auditRuleIDsAreTheirOwn() {
        let lint = Set(BuiltInRules.descriptions.map(\.id))
        let audit = AuditRules.descriptions.map(\.id)
        #expect(Set(audit).count == audit.count)
        #expect(lint.intersection(audit).isEmpty)
        #expect(AuditRules.descriptions.allSatisfy { [.appCode, .appHazards].contains($0.category) })
        // Each names its source: OWASP MASTG or MASWE, Apple, WebKit, or the research it copies.
        for rule in AuditRules.descriptions {
            #expect(["MASTG", "MASWE", "Apple", "WebKit", "audit-checks.md", "App Review"].contains { rule.rationale.contains($0) }, "\(rule.id) names no source")
        }
    }

    @Test func rulesDocumentationIsFresh() throws {
        let path = Self.root.appendingPathComponent("docs/rules.md")
        let generated = RuleDocumentation.markdown(BuiltInRules.descriptions + AuditRules.descriptions)
        if ProcessInfo.processInfo.environment["WEBPOLICY_RECORD"] == "1" { try generated.write(to: path, atomically: true, encoding: .utf8) }
        let committed = try String(contentsOf: path, encoding: .utf8)
        #expect(committed == generated, "docs/rules.md is stale: run `webpolicy rules --format markdown > docs/rules.md`")
    }
}

/// Each on/off `webview:` setting is one the audit recognises in Swift and Objective-C, so a
/// new catalogue row reaches `webview-setting-mismatch` and the draft.
@Suite("The audit reads every web view setting")
struct WebViewSettingVocabularyTests {
    @Test func everyCatalogueRowHasASettingKeyAndItsNames() {
        for row in WebViewSettingCatalogue.booleans {
            let key = AppFact.SettingKey(row)
            #expect(key != nil, "\(row.key): add a case \(row.objectiveCName) to AppFact.SettingKey")
            #expect(key?.row?.key == row.key)
            #expect(WebKitVocabulary.swiftSettings[row.swiftName] == key, "\(row.swiftName)")
        }
    }
}
