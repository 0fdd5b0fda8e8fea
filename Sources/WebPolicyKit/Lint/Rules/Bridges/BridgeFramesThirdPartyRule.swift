import WebPolicyRuntime

/// OWASP MASTG-TEST-0078: a handler is defined in every frame.
struct BridgeFramesThirdPartyRule: LintRule {
    static let description = RuleDescription(
        id: "bridge-frames-third-party",
        name: "Bridge Open to Frames Beside Third-Party Iframes",
        category: .bridges,
        defaultSeverity: .warning,
        summary: "`frames: all` on a bridge while the view shows iframes of hosts the bridge does not admit.",
        rationale: """
        WebKit defines a message handler in every frame (OWASP MASTG-TEST-0078), iframes \
        included; `frames: all` keeps only the origin check between an iframe and the app's \
        native code. When `navigation.frames` admits other sites' iframes (a video player, a \
        payment widget, an ad), each of them can post to the handler, and an iframe's own \
        `about:blank` or `srcdoc` children inherit its origin. Unless an iframe of your own \
        needs the bridge, admit the main frame only (`frames: main`); Brave splits its scripts \
        into main-frame and all-frame ones for the same reason.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0068"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-749"]),
        failing: [
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
              frames:
                - host: www.youtube-nocookie.com
            bridges:
              - name: nativeBridge
                origins: ["*.shop.example.com"]
                frames: ↓all
            """),
        ],
        passing: [
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
              frames:
                - host: www.youtube-nocookie.com
            bridges:
              - name: nativeBridge
                origins: ["*.shop.example.com"]
                frames: main
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let frames = policy.navigation?.frames, !frames.isEmpty else { return }
        for bridge in policy.bridges where bridge.framesValue == .all {
            let others = frames.filter { !bridge.admitsEveryHost(of: $0.scope) }.map(\.host.value)
            guard !others.isEmpty else { continue }
            context.report("bridge '\(bridge.name.value)' answers iframes, and the view shows iframes of \(others.joined(separator: ", ")), which it does not admit: only the origin check stands between them and the app",
                           at: bridge.frames?.location ?? bridge.location, hint: "set 'frames: main' unless an iframe of your own calls the bridge")
        }
    }
}
