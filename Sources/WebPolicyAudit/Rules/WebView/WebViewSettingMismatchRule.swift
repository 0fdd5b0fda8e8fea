import WebPolicyKit
import WebPolicyRuntime

/// Every other on/off `webview:` setting against the code that sets its property.
struct WebViewSettingMismatchRule: AuditRule {
    /// Rows with a rule of their own, which knows more of them (an inspectable release
    /// build, JavaScript's deprecated switch, windows a script opens).
    static let rowsWithTheirOwnRule: Set<String> = ["inspectable", "javascript", "javascript-can-open-windows"]

    static let description = RuleDescription(
        id: "webview-setting-mismatch",
        name: "Web View Setting Against the Policy",
        category: .appCode,
        defaultSeverity: .warning,
        summary: "The app's code sets a web view property that `webview:` holds to another value than the policy says.",
        rationale: """
        `webview:` is what the app applies (`configureWebView`), what lint checks against the \
        target iOS and what reviewers read. Code that sets the same property itself — \
        \(WebViewSettingCatalogue.booleans.filter { !rowsWithTheirOwnRule.contains($0.key) }.map { "`\($0.swiftName)`" }.joined(separator: ", ")) — \
        to another value wins or loses by the order of the calls, and the policy no longer says \
        what ships: a Safe Browsing warning turned off, known hosts left on http, a page taking \
        the whole screen. A property left out of the policy is held to the platform's default. \
        Source: Apple's documentation of each property (`WKPreferences`, \
        `WKWebViewConfiguration`); MASVS-PLATFORM-2.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Player.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                ↓configuration.preferences.isElementFullscreenEnabled = true
            }
            """), policy: """
            webview:
              javascript: true
            """),
            .triggers(.init("App/Browser.m", """
            - (void)configure:(WKWebViewConfiguration *)configuration {
                ↓configuration.preferences.fraudulentWebsiteWarningEnabled = NO;
            }
            """), policy: """
            webview:
              fraudulent-website-warning: true
            """),
            .passes(.init("App/Player.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                configuration.preferences.isElementFullscreenEnabled = true
            }
            """), policy: """
            webview:
              element-fullscreen: true
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let section = app.policy?.webView else { return }
        for row in WebViewSettingCatalogue.booleans where !Self.rowsWithTheirOwnRule.contains(row.key) {
            row.drift(in: app, against: section, &context)
        }
    }
}
