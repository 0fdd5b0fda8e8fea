import WebPolicyKit
import WebPolicyRuntime

/// MASTG-TEST-0078: a handler is reachable from every frame of every page the view loads.
struct BridgeUndeclaredRule: AuditRule {
    static let description = RuleDescription(
        id: "bridge-undeclared",
        name: "Script Message Handler the Policy Does Not Declare",
        category: .appCode,
        defaultSeverity: .error,
        summary: "The app registers a script message handler that `bridges:` does not declare: no origin, frame or world rule applies to it.",
        rationale: """
        Adding a handler named N defines `window.webkit.messageHandlers.N.postMessage` "in all \
        frames in all web views that use the user content controller" (OWASP MASTG-TEST-0078; \
        Apple's `add(_:name:)`). The policy's bridge is where the team says which origins and \
        frames may call it — and what the runtime's `ScriptMessageGate` enforces. A handler \
        registered outside the policy answers every page. A name the source does not spell out \
        (built at run time, read from configuration) is reported as info: the audit cannot \
        check it, and says so instead of guessing. Source: MASTG-TEST-0078, MASWE-0068.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0068"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-749"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("Shop/ShopViewController.swift", """
            import WebKit

            final class ShopViewController: UIViewController, WKScriptMessageHandler {
                func install(in controller: WKUserContentController) {
                    controller.add(self, name: "cart")
                    ↓controller.add(self, name: "debugLog")
                }
            }
            """), policy: """
            bridges:
              - name: cart
                origins: ["shop.example.com"]
            """),
            .triggers(.init("Legacy/Bridge.m", """
            #define LOG_HANDLER @"consoleLog"

            @implementation Bridge
            - (void)install:(WKUserContentController *)controller {
                ↓[controller addScriptMessageHandler:self name:LOG_HANDLER];
            }
            @end
            """), policy: """
            bridges:
              - name: cart
                origins: ["shop.example.com"]
            """),
            .passes(.init("Shop/ShopViewController.swift", """
            import WebKit

            enum Channel: String { case cart }

            final class ShopViewController: UIViewController, WKScriptMessageHandler {
                func install(in controller: WKUserContentController) {
                    controller.add(self, name: Channel.cart.rawValue)
                    // controller.add(self, name: "debugLog")
                    log("controller.add(self, name: \\"debugLog\\")")
                    #if DEBUG
                    #endif
                }
            }
            """), policy: """
            bridges:
              - name: cart
                origins: ["shop.example.com"]
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy else { return }
        for (fact, handler) in app.messageHandlers {
            guard let name = handler.name.stringValue else {
                context.report("a script message handler is registered under a name the source does not spell out (\(handler.name.quoted)): the audit cannot check it against the policy's bridges",
                               at: fact.site, hint: "declare its bridge in the policy and suppress this with the name, or register it under a constant", severity: .info)
                continue
            }
            guard policy.bridges(named: name).isEmpty else { continue }
            let through = handler.throughGate ? " (the runtime's gate throws for it)" : ""
            context.report("the script message handler '\(name)' is registered, but bridges: declares no bridge named '\(name)'\(through)",
                           at: fact.site, hint: "declare it under bridges: with the origins that may call it, or remove the registration")
        }
    }
}
