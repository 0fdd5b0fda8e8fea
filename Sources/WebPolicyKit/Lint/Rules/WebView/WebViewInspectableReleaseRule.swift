import WebPolicyRuntime

/// Apple: `WKWebView.isInspectable` lets Safari Web Inspector into the view's content.
struct WebViewInspectableReleaseRule: LintRule {
    static let description = RuleDescription(
        id: "webview-inspectable-release",
        name: "Inspectable Web View in an App Store Build",
        category: .webView,
        defaultSeverity: .warning,
        summary: "`inspectable: true` in a policy that ships to the App Store.",
        rationale: """
        `WKWebView.isInspectable` (iOS 16.4; default false) lets Safari Web Inspector into the \
        view: read its pages, cookies and storage, and run scripts in it — which may call the \
        app's bridges with whatever the app answers (Apple's documentation; \
        webkit.org/blog/13936). Apple's guidance is to turn it on for debug builds, or where \
        inspecting web content is a feature of the app. A policy with `distribution: \
        app-store` ships it to every user: make it a development policy's setting, or say \
        why with a suppression.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0074"], mastg: ["MASTG-TEST-0076"], cwe: ["CWE-489"]),
        failing: [
            Example("""
            target: { ios: "17.0", distribution: app-store }
            webview:
              inspectable: ↓true
            """),
        ],
        passing: [
            Example("""
            target: { ios: "17.0", distribution: development }
            webview:
              inspectable: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let setting = policy.webView?.inspectable, setting.value, policy.distribution == .appStore else { return }
        context.report("the web view is inspectable in an App Store build: Safari Web Inspector can read its pages and run scripts in them, bridges included",
                       at: setting.location, hint: "turn it on in a development policy (target.distribution: development) only")
    }
}
