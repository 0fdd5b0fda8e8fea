import WebPolicyKit
import WebPolicyRuntime

/// `allowsContentJavaScript` / the deprecated `javaScriptEnabled` against `webview.javascript`.
struct JavaScriptMismatchRule: AuditRule {
    static let description = RuleDescription(
        id: "javascript-mismatch",
        name: "JavaScript Switch Against the Policy",
        category: .appCode,
        defaultSeverity: .error,
        summary: "The app turns the page's JavaScript on or off against what `webview.javascript` says.",
        rationale: """
        `webview.javascript` (default true) decides whether pages run scripts; the runtime's \
        `configureWebView` sets `defaultWebpagePreferences.allowsContentJavaScript` from it, and \
        `simulate` refuses bridge messages when it is off. Code that sets the switch the other \
        way — through `allowsContentJavaScript`, the `javaScriptEnabled` preference deprecated \
        in iOS 14, or Interface Builder — makes the app do what the policy does not say. \
        Source: MASTG-TEST-0076 ("JavaScript should be disabled unless explicitly required"); \
        Apple, `allowsContentJavaScript`; audit-checks.md WV3.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0076"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Reader.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                ↓configuration.defaultWebpagePreferences.allowsContentJavaScript = true
            }
            """), policy: """
            webview:
              javascript: false
            """),
            .passes(.init("App/Reader.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                configuration.defaultWebpagePreferences.allowsContentJavaScript = false
            }
            """), policy: """
            webview:
              javascript: false
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy, let section = policy.webView else { return }
        let wanted = section.javaScript?.value ?? true
        let notes = section.javaScript.map { [Diagnostic.Note("the policy says javascript: \(wanted) here", at: $0.location)] } ?? [Diagnostic.Note("the policy leaves webview.javascript at its default, true")]
        for key in [AppFact.SettingKey.allowsContentJavaScript, .javaScriptEnabled] {
            for (fact, setting) in app.settings(key) {
                guard let value = setting.value.boolValue, value != wanted else { continue }
                context.report("\(setting.target) is set to \(value), but the policy says javascript: \(wanted)",
                               at: fact.site, hint: "apply webview: with policy.configureWebView(configuration), or change the policy", notes: notes)
            }
        }
    }
}
