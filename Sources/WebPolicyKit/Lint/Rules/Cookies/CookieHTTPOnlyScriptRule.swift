import WebPolicyRuntime

/// RFC 6265 §5.3 step 10: a non-HTTP API cannot set an HttpOnly cookie.
struct CookieHTTPOnlyScriptRule: LintRule {
    static let description = RuleDescription(
        id: "cookie-http-only-script",
        name: "Cookie HTTP-Only Set by Script",
        category: .cookies,
        defaultSeverity: .error,
        summary: "A cookie set through `document.cookie` cannot be `http-only`.",
        rationale: """
        RFC 6265 §5.3 step 10: "If the cookie was received from a 'non-HTTP' API and the \
        cookie's http-only-flag is set, abort these steps and ignore the cookie entirely." \
        `via: document-cookie` writes the cookie from a `WKUserScript`, a non-HTTP API, so the \
        browser drops an `http-only` cookie without a word. Deliver it through the cookie store \
        (`via: cookie-store`), which can set HttpOnly, or drop `http-only`.
        """,
        standards: .init(cwe: ["CWE-1004"]),
        failing: [
            Example("""
            cookies:
              - name: session
                value: abc
                domain: example.com
                http-only: ↓true
                via: document-cookie
            """),
        ],
        passing: [
            Example("""
            cookies:
              - name: session
                value: abc
                domain: example.com
                http-only: true
                via: cookie-store
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for cookie in policy.cookies where cookie.via?.value == .documentCookie {
            guard let httpOnly = cookie.httpOnly, httpOnly.value else { continue }
            context.report("cookie '\(cookie.name.value)' is http-only but set through document.cookie, which ignores http-only cookies entirely",
                           at: httpOnly.location, hint: "use 'via: cookie-store' (WKHTTPCookieStore) to keep it http-only")
        }
    }
}
