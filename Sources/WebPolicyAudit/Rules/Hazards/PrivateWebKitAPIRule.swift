import WebPolicyKit
import WebPolicyRuntime

/// `registerSchemeForCustomProtocol` and `WKBrowsingContextController`: the private way to
/// route WKWebView's http(s) through NSURLProtocol, found in code or spelled in a string.
struct PrivateWebKitAPIRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "private-webkit-api",
        name: "Private WebKit API",
        category: .appHazards,
        defaultSeverity: .error,
        summary: "The code names private WebKit API (`registerSchemeForCustomProtocol`, `WKBrowsingContextController`): App Review refuses it, and WebKit may drop it in any release.",
        rationale: """
        The private custom-protocol registration makes WKWebView send http(s) through \
        NSURLProtocol; WebKit uses it in its own tests (`TestProtocol.mm`) and declined to \
        support it "since we do not support custom NSURLProtocols as API" (WebKit bug 137299). \
        Apps reach it through `NSClassFromString` and selector strings, so strings count. \
        "Apps may only use public APIs" (App Review Guideline 2.5.1): an error for the App \
        Store, a warning when `target.distribution` is enterprise or development. The public \
        way to answer requests is `interception:` with a custom scheme. Source: App Review \
        Guideline 2.5.1; WebKit `TestProtocol.mm`; ios-domain.md §2.4; audit-checks.md IC6.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0077"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Offline.swift", """
            func enableOfflineCache() {
                let controller: AnyClass? = NSClassFromString(↓"WKBrowsingContextController")
                _ = controller
            }
            """)),
            .passes(.init("App/Offline.swift", """
            func enableOfflineCache(_ configuration: WKWebViewConfiguration) {
                configuration.setURLSchemeHandler(OfflineCache(), forURLScheme: "app-offline")
            }
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        let lenient = app.policy.map { $0.distribution != .appStore } ?? false
        var sites: Set<SourceLocation> = []
        for (fact, use) in app.uses(.privateAPI) where sites.insert(fact.site.location).inserted {
            let name = use.detail?.text ?? "a private name"
            context.report("the private WebKit API '\(name)' is used here: App Review refuses private API, and WebKit may remove it",
                           at: fact.site, hint: "answer requests with interception: and a custom scheme (WKURLSchemeHandler) instead",
                           severity: lenient ? .warning : nil)
        }
    }
}
