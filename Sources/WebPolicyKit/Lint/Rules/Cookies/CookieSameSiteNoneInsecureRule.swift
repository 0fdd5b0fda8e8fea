import WebPolicyRuntime

/// RFC 6265bis storage model: SameSite=None requires Secure.
struct CookieSameSiteNoneInsecureRule: LintRule {
    static let description = RuleDescription(
        id: "cookie-same-site-none-insecure",
        name: "Cookie SameSite None Without Secure",
        category: .cookies,
        defaultSeverity: .error,
        summary: "A cookie with `same-site: none` must be `secure`.",
        rationale: """
        RFC 6265bis (storage model): "If the cookie's same-site-flag is 'None', abort these \
        steps and ignore the cookie entirely unless the cookie's secure-only-flag is true." \
        Browsers that implement 6265bis drop such a cookie; WKWebView on iOS 18 reads an \
        explicit None back as Lax (Apple developer forums, thread 765199). Add `secure: true`.
        """,
        standards: .init(masvs: ["MASVS-NETWORK-1"], maswe: ["MASWE-0050"], cwe: ["CWE-614"]),
        failing: [
            Example("""
            cookies:
              - name: widget
                value: abc
                domain: example.com
                same-site: ↓none
            """),
            Example("""
            cookies:
              - name: widget
                value: abc
                domain: example.com
                secure: false
                same-site: ↓none
            """),
        ],
        passing: [
            Example("""
            cookies:
              - name: widget
                value: abc
                domain: example.com
                secure: true
                same-site: none
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for cookie in policy.cookies where cookie.sameSite?.value == SameSite.none && !(cookie.secure?.value ?? false) {
            let fix = context.fixes.set("secure", to: "true", existing: cookie.secure?.location, besides: cookie.name).map { Fix("set 'secure: true'", edits: [$0]) }
            context.report("cookie '\(cookie.name.value)' is same-site none but not secure, so browsers ignore it",
                           at: cookie.sameSite!.location, hint: "add 'secure: true'", fix: fix)
        }
    }
}
