import WebPolicyKit
import WebPolicyRuntime

/// The app decides navigation actions itself while the policy has a `navigation:` section.
struct NavigationUnmanagedRule: AuditRule {
    static let description = RuleDescription(
        id: "navigation-unmanaged",
        name: "Navigation Decided Without the Runtime",
        category: .appCode,
        defaultSeverity: .warning,
        summary: "A navigation delegate decides navigation actions by itself while the policy has `navigation:`, and the app never uses the runtime's `NavigationDecider`.",
        rationale: """
        `navigation:` says which pages and frames the view may show and what happens to the \
        rest; the runtime's `NavigationDecider` applies exactly that in \
        `webView(_:decidePolicyFor:decisionHandler:)`, and `simulate` predicts it. A decider \
        written by hand decides something else — commonly a prefix test on the URL string, \
        which `https://app.example.com.evil.net` passes. Statically the audit can only say the \
        runtime is not used; the hand-written decider may still agree. Source: Apple, \
        `WKNavigationDelegate`; CodeQL `swift/incomplete-hostname-regex` (CWE-020); \
        audit-checks.md NV1, NV2.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0071"], mastg: ["MASTG-TEST-0076"], cwe: ["CWE-829"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Browser.swift", """
            extension BrowserViewController: WKNavigationDelegate {
                func ↓webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
                             decisionHandler: @escaping (WKNavigationActionPolicy) -> Void) {
                    let allowed = navigationAction.request.url?.absoluteString.hasPrefix("https://shop.example.com") ?? false
                    decisionHandler(allowed ? .allow : .cancel)
                }
            }
            """), policy: """
            navigation:
              pages:
                - host: shop.example.com
              otherwise: block
            """),
            // WebKit for SwiftUI: a page's navigation decider.
            .triggers(.init("App/ArticleDecider.swift", """
            import WebKit

            struct ArticleDecider: WebPage.NavigationDeciding {
                mutating func ↓decidePolicy(for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences) async -> WKNavigationActionPolicy {
                    action.request.url?.host == "shop.example.com" ? .allow : .cancel
                }
            }
            """), policy: """
            navigation:
              pages:
                - host: shop.example.com
              otherwise: block
            """),
            .passes(.init("App/Browser.swift", """
            extension BrowserViewController: WKNavigationDelegate {
                func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
                             decisionHandler: @escaping (WKNavigationActionPolicy) -> Void) {
                    decider.decide(navigationAction, decisionHandler: decisionHandler)
                }

                func makeDecider(policy: RuntimePolicy) -> NavigationDecider {
                    NavigationDecider(policy: policy, opener: ApplicationOpener())
                }
            }
            """), policy: """
            navigation:
              pages:
                - host: shop.example.com
              otherwise: block
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy, policy.navigation != nil, app.uses(.runtimeNavigation).isEmpty else { return }
        for fact in app.facts() {
            guard case .delegate(let method) = fact.kind, method.role == .decideNavigationAction else { continue }
            context.report("navigation actions are decided here without the runtime's NavigationDecider, while the policy has navigation:",
                           at: fact.site, hint: method.ofWebPage
                               ? "decide with the runtime's PolicyNavigationDecider (WebPage(policy:opener:)), so the page goes where simulate says"
                               : "decide with NavigationDecider(policy:opener:), so the view goes where simulate says")
        }
    }
}
