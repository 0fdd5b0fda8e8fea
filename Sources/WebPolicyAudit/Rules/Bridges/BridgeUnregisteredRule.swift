import WebPolicyKit
import WebPolicyRuntime

/// The policy's bridges against the registrations found: a stale declaration, or a handler
/// registered where the audit cannot see (a package, a wrapper).
struct BridgeUnregisteredRule: AuditRule {
    static let description = RuleDescription(
        id: "bridge-unregistered",
        name: "Declared Bridge Never Registered",
        category: .appCode,
        defaultSeverity: .warning,
        summary: "`bridges:` declares a handler the app's code never registers: the policy is stale, or the registration is out of the audit's sight.",
        rationale: """
        A declared bridge keeps an origin rule alive in review and in `simulate` for a handler \
        that may not exist. Either remove it, or — when the registration lives in a package or \
        behind the app's own wrapper the audit cannot follow — suppress this in the policy with \
        where it is. When some registrations use names the source does not spell out, the \
        finding is info: one of them may be this bridge. Source: audit-checks.md BR4.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0068"], mastg: ["MASTG-TEST-0078"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Bridge.swift", """
            final class Bridge: NSObject, WKScriptMessageHandler {
                func install(in controller: WKUserContentController) {
                    controller.add(self, name: "cart")
                }
            }
            """), policy: """
            bridges:
              - name: cart
                origins: ["shop.example.com"]
              - name: ↓wallet
                origins: ["pay.example.com"]
            """),
            .passes(.init("App/Bridge.swift", """
            final class Bridge: NSObject, WKScriptMessageHandler {
                static let walletChannel = "wallet"
                func install(in controller: WKUserContentController) {
                    controller.add(self, name: "cart")
                    controller.addScriptMessageHandler(self, contentWorld: .page, name: Bridge.walletChannel)
                }
            }
            """), policy: """
            bridges:
              - name: cart
                origins: ["shop.example.com"]
              - name: wallet
                origins: ["pay.example.com"]
                reply: true
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy else { return }
        let handlers = app.messageHandlers
        let registered = Set(handlers.compactMap { $0.handler.name.stringValue })
        let dynamic = handlers.filter { $0.handler.name.stringValue == nil }
        var reported: Set<String> = []
        for bridge in policy.bridges where !registered.contains(bridge.name.value) && reported.insert(bridge.name.value).inserted {
            if dynamic.isEmpty {
                context.report("bridges: declares '\(bridge.name.value)', but the app's code never registers a handler by that name",
                               at: bridge.name.location, hint: "remove the bridge, or suppress this with where the handler is registered (a package, a wrapper)")
            } else {
                context.report("bridges: declares '\(bridge.name.value)'; no registration spells it out, though \(dynamic.count) use\(dynamic.count == 1 ? "s" : "") a name the audit cannot read",
                               at: bridge.name.location, hint: "register it under a constant, so the audit can tie it to this bridge",
                               notes: dynamic.prefix(3).map { Diagnostic.Note("registered under \($0.handler.name.quoted)", at: $0.fact.site.location) }, severity: .info)
            }
        }
    }
}
