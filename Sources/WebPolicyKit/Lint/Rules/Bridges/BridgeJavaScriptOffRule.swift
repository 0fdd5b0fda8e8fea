import WebPolicyRuntime

/// Apple: `WKWebpagePreferences.allowsContentJavaScript` stops the page's own scripts.
struct BridgeJavaScriptOffRule: LintRule {
    static let description = RuleDescription(
        id: "bridge-javascript-off",
        name: "Page-World Bridge with JavaScript Off",
        category: .bridges,
        defaultSeverity: .warning,
        summary: "A bridge in the page world while `webview.javascript` is false: no page script can call it.",
        rationale: """
        With `allowsContentJavaScript = false` the web view "doesn't execute JavaScript code \
        referenced by the web content … inline `<script>` elements, `javascript:` URLs, and \
        all other referenced JavaScript content" (Apple's documentation); the app's own user \
        scripts still run. A bridge in the page world is then reachable only by the app's \
        user scripts, and those belong in a world of the app's (`world: client` or a name), \
        where the page could not reach the bridge even with JavaScript on. Move the bridge, \
        or turn JavaScript on if the site's scripts are meant to call it. (Cookies delivered \
        by `document-cookie` are user scripts, so JavaScript off does not stop them.)
        """,
        failing: [
            Example("""
            webview:
              javascript: false
            bridges:
              - name: nativeBridge
                origins: ["*.shop.example.com"]
                world: ↓page
            """),
        ],
        passing: [
            Example("""
            webview:
              javascript: false
            bridges:
              - name: nativeBridge
                origins: ["*.shop.example.com"]
                world: client
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let setting = policy.webView?.javaScript, !setting.value else { return }
        for bridge in policy.bridges where bridge.worldValue == .page {
            context.report("bridge '\(bridge.name.value)' is in the page world, and JavaScript is off: no page script can call it",
                           at: bridge.world?.location ?? bridge.name.location, hint: "add it in 'world: client' for the app's own scripts",
                           notes: [Diagnostic.Note("JavaScript is turned off here", at: setting.location)])
        }
    }
}
