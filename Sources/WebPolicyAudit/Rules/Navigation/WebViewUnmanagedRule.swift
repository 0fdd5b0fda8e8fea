import WebPolicyKit
import WebPolicyRuntime

/// A web view whose configuration never passed through the runtime: no part of the policy
/// applies to it (MASTG-TEST-0076's "identify WebView usage", held against the policy).
struct WebViewUnmanagedRule: AuditRule {
    static let description = RuleDescription(
        id: "webview-unmanaged",
        name: "Web View Built Outside the Runtime",
        category: .appCode,
        defaultSeverity: .error,
        summary: "A web view is built with a configuration the runtime did not make or configure (or archived in a storyboard): the policy is not enforced in it.",
        rationale: """
        The runtime applies the policy when it makes the configuration \
        (`policy.makeWebViewConfiguration()`, or `configureWebView` on one the app made, before \
        `WKWebView(frame:configuration:)` copies it) — rule lists, scheme handlers, settings, \
        the App-Bound limit. A view built from any other configuration, or archived in \
        Interface Builder (WebKit builds it from the archived configuration), gets none of it. \
        In an app that does not use the runtime at all, each such view is a warning: the audit \
        then checks the code against the policy, and nothing enforces it. A view made only to \
        read the user agent is a fair suppression, with that reason. Source: MASTG-TEST-0076; \
        Apple, `init(frame:configuration:)` ("saves a copy of your configuration"); \
        audit-checks.md INV1.
        """,
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Help.swift", """
            final class HelpViewController: UIViewController {
                func makeViews(policy: RuntimePolicy) -> [WKWebView] {
                    let managed = policy.makeWebView(frame: .zero)
                    let help = ↓WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
                    return [managed, help]
                }
            }
            """), policy: """
            webview:
              javascript: true
            """),
            .passes(.init("App/Shop.swift", """
            final class ShopViewController: UIViewController {
                func makeView(policy: RuntimePolicy) -> WKWebView {
                    let configuration = WKWebViewConfiguration()
                    policy.configureWebView(configuration)
                    return WKWebView(frame: .zero, configuration: configuration)
                }

                func makeOther(policy: RuntimePolicy) -> WKWebView {
                    WKWebView(frame: .zero, configuration: policy.makeWebViewConfiguration())
                }
            }
            """), policy: """
            webview:
              javascript: true
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard app.policy != nil else { return }
        let usesRuntime = app.webViews.contains { $0.view.managed } || app.messageHandlers.contains { $0.handler.throughGate }
            || app.schemeHandlers.contains { $0.handler.scheme == nil } || !app.uses(.runtimeNavigation).isEmpty
        for (fact, view) in app.webViews where !view.managed && !view.forNewWindow {
            let what = view.interfaceBuilder ? "a \(view.className) archived in Interface Builder is built from its archived configuration" : "\(view.className) is built with a configuration the runtime did not make"
            if usesRuntime {
                context.report("\(what): the policy is not enforced in it", at: fact.site,
                               hint: "build it with policy.makeWebViewConfiguration() (or configureWebView on its configuration before the view exists)")
            } else {
                context.report("\(what); the app does not use WebPolicyRuntime, so the policy is checked against the code here, not enforced", at: fact.site,
                               hint: "adopt the runtime (docs/runtime.md): policy.makeWebViewConfiguration()", severity: .warning)
            }
        }
    }
}
