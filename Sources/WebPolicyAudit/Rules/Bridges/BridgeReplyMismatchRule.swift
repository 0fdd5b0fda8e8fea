import WebPolicyKit
import WebPolicyRuntime

/// `addScriptMessageHandler(_:contentWorld:name:)` registers a handler that replies; `add` one
/// that does not — the page's promise never settles, or the policy misdescribes the bridge.
struct BridgeReplyMismatchRule: AuditRule {
    static let description = RuleDescription(
        id: "bridge-reply-mismatch",
        name: "Reply Handler Against the Bridge's reply",
        category: .appCode,
        defaultSeverity: .warning,
        summary: "A handler is registered with a reply where its bridge says `reply: false`, or without one where it says `reply: true`.",
        rationale: """
        A reply handler (`addScriptMessageHandler(_:contentWorld:name:)`, Objective-C \
        `addScriptMessageHandlerWithReply:contentWorld:name:`) makes `postMessage` return a \
        promise the app settles; a plain one returns nothing. The bridge's `reply:` is what \
        `simulate` and reviewers read, and a page written for one form breaks under the other. \
        Source: Apple, `WKUserContentController`; audit-checks.md BR3.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0068"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-749"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Wallet.swift", """
            func install(_ controller: WKUserContentController, handler: WKScriptMessageHandlerWithReply) {
                ↓controller.addScriptMessageHandler(handler, contentWorld: .page, name: "wallet")
            }
            """), policy: """
            bridges:
              - name: wallet
                origins: ["pay.example.com"]
            """),
            .passes(.init("App/Wallet.swift", """
            func install(_ controller: WKUserContentController, handler: WKScriptMessageHandlerWithReply) {
                controller.addScriptMessageHandler(handler, contentWorld: .page, name: "wallet")
            }
            """), policy: """
            bridges:
              - name: wallet
                origins: ["pay.example.com"]
                reply: true
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy else { return }
        for (fact, handler) in app.messageHandlers {
            guard let name = handler.name.stringValue else { continue }
            let bridges = policy.bridges(named: name)
            guard !bridges.isEmpty, !bridges.contains(where: { $0.replyValue == handler.reply }) else { continue }
            let registered = handler.reply ? "with a reply handler" : "without a reply handler"
            context.report("the handler '\(name)' is registered \(registered), but its bridge says reply: \(!handler.reply)",
                           at: fact.site, hint: handler.reply ? "add 'reply: true' to the bridge, or register it with add(_:name:)" : "set 'reply: false' on the bridge, or register it with addScriptMessageHandler(_:contentWorld:name:)",
                           notes: bridges.map { Diagnostic.Note("the bridge '\(name)' is declared here", at: $0.name.location) })
        }
    }
}
