import WebPolicyKit
import WebPolicyRuntime

/// `webView(_:createWebViewWith:for:windowFeatures:)` returning a new view: a second view the
/// policy's `new-windows` never opens.
struct NewWindowSecondWebViewRule: AuditRule {
    static let description = RuleDescription(
        id: "new-window-second-webview",
        name: "New Window Opened as a Second Web View",
        category: .appCode,
        defaultSeverity: .error,
        summary: "The UI delegate answers a new-window request with a second web view, which none of `navigation.new-windows`'s choices (same-view, open-externally, block) does.",
        rationale: """
        A view returned from `createWebViewWith` "must be created with the specified \
        configuration" (Apple) and loads the popup — an ad, an OAuth window, a \
        `target=_blank` link — with its own history, outside the pages the policy \
        checks. `new-windows` says what to do instead, and the runtime's `WindowDecider` does \
        it. Source: Apple, `webView(_:createWebViewWith:for:windowFeatures:)`; MASTG KNOW-0076; \
        audit-checks.md NV3.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0071"], mastg: ["MASTG-TEST-0076"], cwe: ["CWE-829"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Popups.swift", """
            extension BrowserViewController: WKUIDelegate {
                func webView(_ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration,
                             for navigationAction: WKNavigationAction, windowFeatures: WKWindowFeatures) -> WKWebView? {
                    let popup = ↓WKWebView(frame: webView.bounds, configuration: configuration)
                    present(popup)
                    return popup
                }
            }
            """), policy: """
            navigation:
              pages:
                - host: shop.example.com
              new-windows: same-view
            """),
            .passes(.init("App/Popups.swift", """
            extension BrowserViewController: WKUIDelegate {
                func webView(_ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration,
                             for navigationAction: WKNavigationAction, windowFeatures: WKWindowFeatures) -> WKWebView? {
                    webView.load(navigationAction.request)
                    return nil
                }
            }
            """), policy: """
            navigation:
              pages:
                - host: shop.example.com
              new-windows: same-view
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let navigation = app.policy?.navigation else { return }
        let value = navigation.newWindows?.value.rawValue ?? "its default"
        for (fact, view) in app.webViews where view.forNewWindow {
            context.report("a new window is opened as a second \(view.className), but the policy's new-windows is \(value): it never opens one",
                           at: fact.site, hint: "decide new windows with WindowDecider(policy:opener:), or load the request in the same view and return nil",
                           notes: navigation.newWindows.map { [Diagnostic.Note("new-windows is set here", at: $0.location)] } ?? [])
        }
    }
}
