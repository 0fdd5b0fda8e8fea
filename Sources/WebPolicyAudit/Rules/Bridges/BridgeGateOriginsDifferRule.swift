import WebPolicyKit
import WebPolicyRuntime

/// The code's own gate and the policy's bridge, compared: the hosts a handler's
/// `userContentController(_:didReceive:)` compares `frameInfo.securityOrigin` with, against the
/// bridge's `origins` — fixed hosts or the server the app binds (`${server}`).
struct BridgeGateOriginsDifferRule: AuditRule {
    static let description = RuleDescription(
        id: "bridge-gate-origins-differ",
        name: "Handler's Gate and Bridge Disagree on Who May Call",
        category: .appCode,
        defaultSeverity: .warning,
        summary: "A script message handler checks its sender against hosts the policy's bridge does not name, or against fixed hosts where the bridge names the server the user chooses.",
        rationale: """
        Two places say who may call a bridge: the handler's own check of \\
        `message.frameInfo.securityOrigin` and the policy's `origins`. When they differ, one of \\
        them is wrong, and a reviewer reading the policy is misled: a host the code admits and \\
        the policy does not list is a caller nobody declared; a bridge declared for `${server}` \\
        — the server the user signs in to, bound at run time — whose handler compares the \\
        sender with fixed hosts refuses every server but those, or admits those whatever the \\
        user chose. Make the two say the same: list the host, or compare the sender with the \\
        bound server. Source: MASTG-TEST-0078; Apple, `WKScriptMessage.frameInfo`.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0068"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-346"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Bridge.swift", """
            final class Bridge: NSObject, WKScriptMessageHandler {
                func install(in controller: WKUserContentController) {
                    controller.add(self, name: "auth")
                }

                func ↓userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard message.frameInfo.securityOrigin.host == "legacy.example.org" else { return }
                    handle(message.body)
                }
            }
            """), policy: """
            bridges:
              - name: auth
                origins: ["home.example.org"]
            """),
            .triggers(.init("App/Companion.swift", """
            final class Companion: NSObject, WKScriptMessageHandler {
                func install(in controller: WKUserContentController) {
                    controller.add(self, name: "externalBus")
                }

                func ↓userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard message.frameInfo.securityOrigin.host == "demo.example.io" else { return }
                    handle(message.body)
                }
            }
            """), policy: """
            runtime-hosts:
              server:
                description: The server the user signed in to.
            bridges:
              - name: externalBus
                origins: ["${server}"]
            """),
            .passes(.init("App/Gate.swift", """
            final class Gate: NSObject, WKScriptMessageHandler {
                func install(in controller: WKUserContentController) {
                    controller.add(self, name: "auth")
                }

                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard message.frameInfo.isMainFrame, message.frameInfo.securityOrigin.host == "home.example.org" else { return }
                    handle(message.body)
                }
            }
            """), policy: """
            bridges:
              - name: auth
                origins: ["*.example.org", "home.example.org"]
            """),
            .passes(.init("App/Server.swift", """
            final class Server: NSObject, WKScriptMessageHandler {
                var serverURL: URL?

                func install(in controller: WKUserContentController) {
                    controller.add(self, name: "externalBus")
                }

                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard message.frameInfo.securityOrigin.host == serverURL?.host else { return }
                    handle(message.body)
                }
            }
            """), policy: """
            runtime-hosts:
              server:
                description: The server the user signed in to.
            bridges:
              - name: externalBus
                origins: ["${server}"]
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy else { return }
        let gates = app.messageReceivers.filter { $0.method.readsFrameInfo && !$0.method.comparedHosts.isEmpty }
        guard !gates.isEmpty else { return }
        // The bridges each gate answers for, by the names its class registers.
        let names = app.handlerNamesByClass.names
        var reported = Set<String>()
        for gate in gates where reported.insert(gate.type).inserted {
            for name in names[gate.type] ?? [] {
                for bridge in policy.bridges(named: name) {
                    report(gate, bridge: bridge, &context)
                }
            }
        }
    }

    private func report(_ gate: (type: String, fact: AppFact, method: AppFact.DelegateMethod), bridge: BridgeDeclaration,
                        _ context: inout AuditRuleContext) {
        let origins = bridge.origins?.value ?? []
        guard !origins.contains(where: { $0.value == "*" }) else { return }
        let scopes = origins.map { HostScope(pattern: $0.value) }
        let hosts = gate.method.comparedHosts.map { $0.lowercased() }
        let note = Diagnostic.Note("bridge '\(bridge.name.value)' names \(SchemeScope.list(origins.map { "'\($0.value)'" }))", at: bridge.name.location)
        if !scopes.isEmpty, scopes.allSatisfy({ $0.role != nil }) {
            let role = scopes[0].written
            context.report("\(gate.type) admits only the fixed \(hosts.count == 1 ? "host" : "hosts") \(SchemeScope.list(hosts)), but bridge '\(bridge.name.value)' names \(role), the server the app binds at run time: the code refuses every other server the user signs in to",
                           at: gate.fact.site, hint: "compare message.frameInfo.securityOrigin with the host of the server the app binds \(role) to, or name the fixed hosts in the policy",
                           notes: [note])
            return
        }
        // A suffix check (`hasSuffix(".example.org")`) is the pattern `*.example.org`.
        let undeclared = hosts.filter { host in !scopes.contains { $0.role == nil && $0.covers(HostScope(pattern: host)) } }
        guard !undeclared.isEmpty else { return }
        context.report("\(gate.type) admits \(SchemeScope.list(undeclared)), which bridge '\(bridge.name.value)' does not list: the code lets \(undeclared.count == 1 ? "a caller" : "callers") the policy never declared call it",
                       at: gate.fact.site, hint: "add \(undeclared.count == 1 ? "it" : "them") to the bridge's origins, or stop admitting \(undeclared.count == 1 ? "it" : "them") in the handler",
                       notes: [note])
    }
}
