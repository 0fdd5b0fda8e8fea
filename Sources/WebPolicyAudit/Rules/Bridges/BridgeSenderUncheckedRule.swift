import WebPolicyKit
import WebPolicyRuntime

/// A script message handler whose `userContentController(_:didReceive:)` reads nothing of the
/// message's sender: every page and every frame the view shows can call it — and under a
/// policy, the bridge's `origins` and `frames` are a promise nothing keeps.
struct BridgeSenderUncheckedRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "bridge-sender-unchecked",
        name: "Script Message Handler That Never Checks Its Sender",
        category: .appCode,
        defaultSeverity: .error,
        summary: "A script message handler's `userContentController(_:didReceive:)` never reads `frameInfo`, and the app does not register it through the runtime's gate: any page or iframe can call it (a warning with no policy; an error when the policy's bridge says who may).",
        rationale: """
        WebKit defines a handler "in all frames in all web views that use the user content \\
        controller" (MASTG-TEST-0078): an advert's iframe or a page a link led to calls it as \\
        easily as the app's own page. Who sent a message is in `message.frameInfo` — \\
        `isMainFrame`, `securityOrigin` — and only code that reads it can refuse. A handler \\
        whose receiving method never does answers everyone. With no policy that is a warning \\
        naming the handlers; under a policy whose bridges say which origins and frames may call \\
        them, it is an error: the declaration is a promise the code does not keep (the \\
        runtime's `ScriptMessageGate` keeps it, and an app that registers through it is not \\
        reported). A handler class the audit cannot find the receiving method of (another \\
        module's) is not reported: it cannot see the check. Source: MASTG-TEST-0078; Apple, \\
        `WKScriptMessage.frameInfo`; audit-checks.md BR5.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0068"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-346"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/CallScreen.swift", """
            enum CallMessage: String, CaseIterable {
                case widgetAction
                case showToast
            }

            final class CallCoordinator: NSObject, WKScriptMessageHandler {
                func install(in controller: WKUserContentController) {
                    CallMessage.allCases.forEach { controller.add(self, name: $0.rawValue) }
                }

                func ↓userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    handle(message.body)
                }
            }
            """), policy: """
            bridges:
              - name: widgetAction
                origins: ["call.example.com"]
              - name: showToast
                origins: ["call.example.com"]
            """),
            .triggers(.init("App/Reader.swift", """
            final class Reader: NSObject, WKScriptMessageHandler {
                func install(in controller: WKUserContentController) {
                    controller.add(self, name: "headings")
                }

                func ↓userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    show(message.body)
                }
            }
            """)),
            // A handler held in a stored property of the class that registers it.
            .triggers(.init("App/HelpCenter.swift", """
            final class HelpCenter {
                func install(in controller: WKUserContentController) {
                    controller.add(bridge, name: "helpCenter")
                }

                private let bridge = HelpCenterBridge()
            }

            final class HelpCenterBridge: NSObject, WKScriptMessageHandler {
                func ↓userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    show(message.body)
                }
            }
            """)),
            .passes(.init("App/Gate.swift", """
            final class Gate: NSObject, WKScriptMessageHandler {
                weak var delegate: WKScriptMessageHandler?

                func install(in controller: WKUserContentController) {
                    controller.add(self, name: "auth")
                }

                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard message.frameInfo.isMainFrame, message.frameInfo.securityOrigin.host == "home.example.org" else { return }
                    delegate?.userContentController(controller, didReceive: message)
                }
            }
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        let receivers = app.messageReceivers
        let (order, names) = app.handlerNamesByClass
        for type in order {
            // One receiving method per class (an extension may hold it); none found: not seen.
            guard let receiver = receivers.first(where: { $0.type == type }), !receivers.filter({ $0.type == type }).contains(where: { $0.method.readsFrameInfo }) else { continue }
            let handlers = names[type] ?? []
            let list = SchemeScope.list(handlers.map { "'\($0)'" })
            let declared = app.policy.map { policy in handlers.flatMap { policy.bridges(named: $0) } } ?? []
            if declared.isEmpty {
                context.report("\(type) receives the script messages of \(list) without reading frameInfo: every page and iframe the view shows can call \(handlers.count == 1 ? "it" : "them")",
                               at: receiver.fact.site, hint: "refuse messages whose message.frameInfo is not the main frame of an origin the app serves, or register through the runtime's ScriptMessageGate",
                               severity: .warning)
            } else {
                context.report("\(type) receives the script messages of \(list) without reading frameInfo, but the policy's bridges say which origins and frames may call them: nothing enforces it",
                               at: receiver.fact.site, hint: "register the handlers through the runtime's ScriptMessageGate, or check message.frameInfo against the bridge's origins and frames",
                               notes: declared.map { Diagnostic.Note("bridge '\($0.name.value)' is declared here", at: $0.name.location) })
            }
        }
    }
}
