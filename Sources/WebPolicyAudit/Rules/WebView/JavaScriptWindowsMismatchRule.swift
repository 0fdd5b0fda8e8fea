import WebPolicyKit
import WebPolicyRuntime

/// `javaScriptCanOpenWindowsAutomatically` against `webview.javascript-can-open-windows`.
struct JavaScriptWindowsMismatchRule: AuditRule {
    static let description = RuleDescription(
        id: "javascript-windows-mismatch",
        name: "Script-Opened Windows Against the Policy",
        category: .appCode,
        defaultSeverity: .warning,
        summary: "The app lets scripts open windows without a tap (or stops them) against `webview.javascript-can-open-windows`.",
        rationale: """
        With `javaScriptCanOpenWindowsAutomatically` on, `window.open` from a script — an ad, a \
        redirect chain — asks the UI delegate for a new window without the user's tap; the \
        policy's `javascript-can-open-windows` (default false, iOS's default too) and \
        `navigation.new-windows` decide what happens then. Source: MASTG KNOW-0076; Apple, \
        `WKPreferences.javaScriptCanOpenWindowsAutomatically`; audit-checks.md WV4.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0076"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Popups.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                ↓configuration.preferences.javaScriptCanOpenWindowsAutomatically = true
            }
            """), policy: """
            webview:
              javascript-can-open-windows: false
            """),
            .passes(.init("App/Popups.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                configuration.preferences.javaScriptCanOpenWindowsAutomatically = true
            }
            """), policy: """
            webview:
              javascript-can-open-windows: true
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let section = app.policy?.webView, let row = WebViewSettingCatalogue.boolean(key: "javascript-can-open-windows") else { return }
        row.drift(in: app, against: section, &context)
    }
}
