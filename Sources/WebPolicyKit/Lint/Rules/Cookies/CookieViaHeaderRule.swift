import WebPolicyRuntime

/// Seed 001: a `Cookie` header on the first request reaches that request only.
struct CookieViaHeaderRule: LintRule {
    static let description = RuleDescription(
        id: "cookie-via-header",
        name: "Cookie Via Header",
        category: .cookies,
        defaultSeverity: .warning,
        summary: "A cookie sent as a `Cookie` header reaches the first request only.",
        rationale: """
        `via: header` puts the cookie in a `Cookie` header on the `URLRequest` the app loads. \
        That header travels on that one request: subresources, XHR and later navigations do \
        not carry it (react-native-wkwebview #100, OpenRadar 21201), a 302 drops it or clashes \
        with `Set-Cookie`, and a header copied onto a cross-domain redirect leaked one domain's \
        cookies to another (react-native-wkwebview #137). `via: cookie-store` \
        (`WKHTTPCookieStore`) reaches every request that domain-matches; wait for its \
        completion handler before the first load.
        """,
        failing: [
            Example("""
            cookies:
              - name: session
                value: abc
                domain: example.com
                via: ↓header
            """),
        ],
        passing: [
            Example("""
            cookies:
              - name: session
                value: abc
                domain: example.com
                via: cookie-store
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for cookie in policy.cookies where cookie.via?.value == .header {
            context.report("cookie '\(cookie.name.value)' goes in a Cookie header, which only the first request carries and redirects lose",
                           at: cookie.via!.location, hint: "use 'via: cookie-store' (WKHTTPCookieStore) unless only the first request needs it")
        }
    }
}
