import Foundation
import Testing
import TestSupport
import WebPolicyAudit
import WebPolicyKit
import WebPolicyRuntime

/// docs/runtime.md shows how an app wires the runtime in; audited as an app, under a policy
/// that declares its bridges and navigation, its examples report nothing — and the audit
/// recognises the runtime's documented call (`WKWebViewConfiguration(policy:)`) in them.
@Suite struct RuntimeDocumentationAuditTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func swiftBlocks(of document: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        var blocks: [String] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line == "```swift" { current = []; continue }
            if current != nil, line.hasPrefix("```") { blocks.append(current!.joined(separator: "\n")); current = nil; continue }
            current?.append(line)
        }
        return blocks
    }

    @Test func runtimeExamplesAuditClean() throws {
        let blocks = try Self.swiftBlocks(of: "docs/runtime.md")
        #expect(blocks.count >= 3)
        let files = blocks.enumerated().map { CodeExample.File("App/Example\($0.offset).swift", $0.element) }
        let example = CodeExample(triggers: false, files: files, policy: """
        bridges:
          - name: cart
            origins: ["shop.example.com"]
          - name: nativeBridge
            origins: ["shop.example.com"]
            reply: true
        navigation:
          pages:
            - host: shop.example.com
          new-windows: same-view
        webview:
          javascript: true
        """)
        let result = try AuditHarness.audit(example)
        // Some blocks are fragments of a type, not whole files: what did not parse is not the point.
        let findings = result.diagnostics.filter { $0.severity != .info && $0.ruleID != "audit-unreadable" }
        #expect(findings.isEmpty, "\(findings.map { "\($0.location.path):\($0.location.range.start.line): \($0.message) [\($0.ruleID)]" })")
        let reading = try Auditor(swiftReader: AuditHarness.swiftReader).read(paths: [result.root + "/App"])
        let views = reading.inventory.facts.compactMap { fact -> AppFact.WebViewConstruction? in
            if case .webView(let view) = fact.kind { return view }
            return nil
        }
        #expect(!views.isEmpty)
        #expect(views.allSatisfy { $0.managed }, "\(views)")
    }
}
