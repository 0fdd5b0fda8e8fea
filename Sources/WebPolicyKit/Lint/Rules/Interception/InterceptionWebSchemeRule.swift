import WebPolicyRuntime

/// WKWebView has no public way to intercept http(s) (ios-domain research §2.4).
struct InterceptionWebSchemeRule: LintRule {
    static let description = RuleDescription(
        id: "interception-web-scheme",
        name: "Interception of http(s)",
        category: .interception,
        defaultSeverity: .error,
        summary: "Intercepting `http`/`https` needs private WebKit API: an error for the App Store, a warning otherwise.",
        rationale: """
        WKWebView loads in another process, so an `NSURLProtocol` never sees its requests, and \
        `setURLSchemeHandler` refuses `http` and `https` (they are WebKit's own schemes). What \
        apps use instead is the private `WKBrowsingContextController \
        registerSchemeForCustomProtocol:` — App Store Review Guideline 2.5.1, "Apps may only \
        use public APIs", and its requests arrive with their POST bodies dropped (WebKit bugs \
        137299 and 140188, which WebKit declined to fix). Serve the content under a custom \
        scheme with a `WKURLSchemeHandler` instead. The severity follows `target.distribution`: \
        an error for `app-store` (the default), a warning for `enterprise` and `development`.
        """,
        failing: [
            Example("""
            interception:
              - scheme: ↓https
                hosts: [api.example.com]
                handler: APIStubHandler
            """),
        ],
        passing: [
            Example("""
            interception:
              - scheme: com.example.app-api
                handler: APIStubHandler
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        let severity: Severity = policy.distribution == .appStore ? .error : .warning
        for rule in policy.interception where WebKitSchemes.web.contains(rule.scheme.value.lowercased()) {
            let store = policy.distribution == .appStore ? " (App Store Review Guideline 2.5.1)" : ""
            context.report("intercepting \(rule.scheme.value.lowercased()) needs private WKWebView API\(store), and POST bodies arrive empty",
                           at: rule.scheme.location, hint: "serve it under a custom scheme with a WKURLSchemeHandler", severity: severity)
        }
    }
}
