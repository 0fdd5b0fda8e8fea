import WebPolicyKit
import WebPolicyRuntime

/// WKWebView loads in another process: an NSURLProtocol registered in the app never sees its
/// requests (ios-domain.md §2.4; OHHTTPStubs#179).
struct URLProtocolForWebViewRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "url-protocol-for-webview",
        name: "URLProtocol in an App With Web Views",
        category: .appHazards,
        defaultSeverity: .warning,
        summary: "The app registers a `URLProtocol` while it has web views: the protocol sees the app's own URLSession traffic, never the web views' requests.",
        rationale: """
        WKWebView does its networking in WebKit's network process, so `URLProtocol.registerClass` \
        and `URLSessionConfiguration.protocolClasses` in the app do not intercept it \
        (AliSoftware/OHHTTPStubs#179, rnapier/RNCachingURLProtocol#32). Code that relies on it \
        to block, cache or rewrite web content does nothing for the web view. Answer the view's \
        requests with `interception:` and a scheme handler. Test targets, where stubs are \
        legitimate, are not read by default. Source: ios-domain.md §2.4; audit-checks.md IC5.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0071"], mastg: ["MASTG-TEST-0077"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Cache.swift", """
            final class BrowserViewController: UIViewController {
                let webView = WKWebView()
                func enableCache() {
                    ↓URLProtocol.registerClass(OfflineProtocol.self)
                }
            }
            """)),
            .passes(.init("App/Networking.swift", """
            func enableStubs() {
                URLProtocol.registerClass(StubProtocol.self)
            }
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard app.hasWebViews else { return }
        for (fact, _) in app.uses(.urlProtocol) {
            context.report("a URLProtocol is registered, but web views load in WebKit's own process: it never sees their requests",
                           at: fact.site, hint: "answer the web views' requests with interception: and a custom scheme")
        }
    }
}
