import WebPolicyRuntime

/// Apple: `WKScriptMessageHandlerWithReply` returns the app's answer to the posting script.
struct BridgeReplyAllFramesRule: LintRule {
    static let description = RuleDescription(
        id: "bridge-reply-all-frames",
        name: "Bridge Replies to Every Frame",
        category: .bridges,
        defaultSeverity: .warning,
        summary: "`reply: true` with `frames: all`: the app's answers go to iframes too.",
        rationale: """
        A bridge registered as a `WKScriptMessageHandlerWithReply` (Apple, iOS 14) answers the \
        posting script: `postMessage` returns a promise of the app's reply. The seeds' bridges \
        answer with tokens and signatures (a web app receiving an access token; a JSSDK that \
        signs requests through the app). With `frames: all`, an iframe asks and reads the \
        answer as well. Keep reply bridges to the main frame, or split what iframes may ask \
        into a bridge of their own without secrets.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0068"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-749"]),
        failing: [
            Example("""
            bridges:
              - name: session
                origins: ["*.shop.example.com"]
                frames: ↓all
                reply: true
            """),
        ],
        passing: [
            Example("""
            bridges:
              - name: session
                origins: ["*.shop.example.com"]
                frames: main
                reply: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for bridge in policy.bridges where bridge.framesValue == .all && bridge.replyValue {
            context.report("bridge '\(bridge.name.value)' replies, and iframes may call it: the app's answers reach them too",
                           at: bridge.frames?.location ?? bridge.location, hint: "set 'frames: main', or give iframes a bridge without replies")
        }
    }
}
