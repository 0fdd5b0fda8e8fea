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
        The runtime applies the policy when it makes the configuration — \
        `WKWebViewConfiguration(policy:)`, or `WKWebView(frame:policy:)` which uses it — before \
        `WKWebView(frame:configuration:)` copies it: scheme handlers, settings, the App-Bound \
        limit. The audit knows the call by its type and its `policy:` label, directly or one \
        `let` away; an app's own `makeWebViewConfiguration()` is not the runtime's. A view built from any other configuration, or archived in \
        Interface Builder (WebKit builds it from the archived configuration), gets none of it. \
        In an app that does not use the runtime at all, each such view is a warning: the audit \
        then checks the code against the policy, and nothing enforces it. A view made only to \
        read the user agent is a fair suppression, with that reason. Source: MASTG-TEST-0076; \
        Apple, `init(frame:configuration:)` ("saves a copy of your configuration"); \
        audit-checks.md INV1.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0071"], mastg: ["MASTG-TEST-0076"], cwe: ["CWE-829"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Help.swift", """
            final class HelpViewController: UIViewController {
                func makeViews(policy: RuntimePolicy) -> [WKWebView] {
                    let managed = WKWebView(frame: .zero, policy: policy)
                    let help = ↓WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
                    return [managed, help]
                }
            }
            """), policy: """
            webview:
              javascript: true
            """),
            // WebKit for SwiftUI: a page made with a configuration of its own.
            .triggers(.init("App/Reader.swift", """
            import SwiftUI
            import WebKit

            @MainActor func makeReader() -> WebPage {
                ↓WebPage(configuration: WebPage.Configuration())
            }
            """), policy: """
            webview:
              javascript: true
            """),
            .passes(.init("App/Shop.swift", """
            final class ShopViewController: UIViewController {
                func makeView(policy: RuntimePolicy) -> WKWebView {
                    let configuration = WKWebViewConfiguration(policy: policy)
                    configuration.applicationNameForUserAgent = "Shop"
                    return WKWebView(frame: .zero, configuration: configuration)
                }

                func makeOther(policy: RuntimePolicy) -> WKWebView {
                    AppWebView(frame: .zero, configuration: try! WKWebViewConfiguration(policy: policy))
                }
            }

            final class AppWebView: WKWebView {}
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
            let what: String
            let build: String
            switch view.className {
            case "WebPage":
                what = "WebPage is built with a configuration the runtime did not make"
                build = "WebPage(policy:opener:), or a WebPage.Configuration(policy:)"
            case "WebView":
                what = "SwiftUI's WebView(url:) makes a page of its own, which the runtime did not configure"
                build = "a WebPage(policy:opener:) shown in WebView(page)"
            default:
                what = view.interfaceBuilder ? "a \(view.className) archived in Interface Builder is built from its archived configuration" : "\(view.className) is built with a configuration the runtime did not make"
                build = "WKWebViewConfiguration(policy: policy), or WKWebView(frame:policy:)"
            }
            if usesRuntime {
                context.report("\(what): the policy is not enforced in it", at: fact.site, hint: "build it from \(build)")
            } else {
                context.report("\(what); the app does not use WebPolicyRuntime, so the policy is checked against the code here, not enforced", at: fact.site,
                               hint: "adopt the runtime (docs/runtime.md): \(build)", severity: .warning)
            }
        }
    }
}
