import WebPolicyKit
import WebPolicyRuntime

/// Apple's `add(_:contentWorld:name:)`: the handler exists only in the world it is added to.
struct BridgeWorldMismatchRule: AuditRule {
    static let description = RuleDescription(
        id: "bridge-world-mismatch",
        name: "Handler Registered in Another Content World",
        category: .appCode,
        defaultSeverity: .error,
        summary: "A handler is registered in a content world its bridge does not name: it is dead where the policy expects it, or reachable by page scripts the policy meant to keep out.",
        rationale: """
        `add(_:name:)` defines the handler "in the page's main content world"; \
        `add(_:contentWorld:name:)` and `addScriptMessageHandler(_:contentWorld:name:)` in the \
        world given (Apple's `WKUserContentController`). A bridge declared for the app's own \
        world but registered in the page world lets every page script call it. A world the \
        source does not spell out is reported as info. Source: Apple, `WKUserContentController`; \
        audit-checks.md BR2.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0068"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-749"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Checkout.swift", """
            func install(_ controller: WKUserContentController, handler: WKScriptMessageHandler) {
                ↓controller.add(handler, name: "checkout")
            }
            """), policy: """
            bridges:
              - name: checkout
                origins: ["pay.example.com"]
                world: checkout
            """),
            .passes(.init("App/Checkout.swift", """
            func install(_ controller: WKUserContentController, handler: WKScriptMessageHandler) {
                controller.add(handler, contentWorld: WKContentWorld.world(name: "checkout"), name: "checkout")
                controller.add(handler, contentWorld: .defaultClient, name: "native")
            }
            """), policy: """
            bridges:
              - name: checkout
                origins: ["pay.example.com"]
                world: checkout
              - name: native
                origins: ["shop.example.com"]
                world: client
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy else { return }
        for (fact, handler) in app.messageHandlers where !handler.throughGate {
            guard let name = handler.name.stringValue else { continue }
            let bridges = policy.bridges(named: name)
            guard !bridges.isEmpty else { continue }
            let declared = bridges.map(\.worldValue.name)
            guard let world = handler.worldName else {
                context.report("the handler '\(name)' is registered in a content world the source does not spell out (\(handler.world?.quoted ?? "")); its bridge names \(declared.joined(separator: ", "))",
                               at: fact.site, hint: "pass .page, .defaultClient or WKContentWorld.world(name:) with a literal", severity: .info)
                continue
            }
            guard !declared.contains(world) else { continue }
            context.report("the handler '\(name)' is registered in the \(world) world, but its bridge is declared for \(declared.joined(separator: ", "))",
                           at: fact.site, hint: world == "page" ? "pass contentWorld: the bridge's world" : "register it in the bridge's world, or change the bridge's world:",
                           notes: bridges.map { Diagnostic.Note("the bridge '\(name)' is declared here", at: $0.name.location) })
        }
    }
}
