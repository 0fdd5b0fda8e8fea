import WebPolicyKit
import WebPolicyRuntime

/// `WKWebView.configuration` "returns a copy of the configuration object, changes you make to
/// that object don't affect the web view's configuration" (Apple).
struct WebViewConfigAfterInitRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "webview-config-after-init",
        name: "Configuration Changed Through a Live View",
        category: .appHazards,
        defaultSeverity: .error,
        summary: "A scalar setting of the configuration is changed through a view's `configuration`, which is a copy: the line does nothing, though it reads like a security control.",
        rationale: """
        `webView.configuration` returns a copy, so `webView.configuration.limitsNavigationsToAppBoundDomains \
        = true`, `.upgradeKnownHostsToHTTPS` or `.dataDetectorTypes` set through it change \
        nothing. Objects reached through it (`preferences`, `userContentController`) are \
        shared and do take effect, so they are not reported. Set the value on the \
        configuration before the view is made — the runtime's `configureNavigation` and \
        `configureWebView` do. Source: Apple, `WKWebView.configuration`; audit-checks.md INV2.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0076"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Browser.swift", """
            func lockDown(_ webView: WKWebView) {
                ↓webView.configuration.limitsNavigationsToAppBoundDomains = true
            }
            """)),
            .passes(.init("App/Browser.swift", """
            func lockDown(_ webView: WKWebView, configuration: WKWebViewConfiguration) {
                configuration.limitsNavigationsToAppBoundDomains = true
                webView.configuration.preferences.javaScriptCanOpenWindowsAutomatically = false
            }
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        for fact in app.facts() {
            guard case .setting(let setting) = fact.kind, setting.onCopy else { continue }
            context.report("\(setting.target) is set through the view's configuration, which is a copy: this changes nothing",
                           at: fact.site, hint: "set it on the WKWebViewConfiguration before the view is made")
        }
    }
}
