import WebPolicyRuntime

/// RFC 6265 §5.3 step 5: a Domain that is a public suffix is refused.
struct CookieDomainPublicSuffixRule: LintRule {
    static let description = RuleDescription(
        id: "cookie-domain-public-suffix",
        name: "Cookie Domain Public Suffix",
        category: .cookies,
        defaultSeverity: .error,
        summary: "A cookie's domain must not be a public suffix such as `co.uk` or `github.io`.",
        rationale: """
        RFC 6265 §5.3 step 5: a Domain attribute that is a public suffix ("such as 'com', \
        'co.uk', and 'pvt.k12.wy.us'") is refused unless it equals the request host. Browsers \
        use the Public Suffix List, private section included, so `domain: github.io` sets \
        nothing — and would hand the cookie to every GitHub Pages site if it did. webpolicy \
        checks against the list it ships (Debian's `publicsuffix` snapshot).
        """,
        standards: .init(cwe: ["CWE-183"]),
        failing: [
            Example("""
            cookies:
              - name: session
                value: abc
                domain: ↓github.io
            """),
            Example("""
            cookies:
              - name: session
                value: abc
                domain: ↓co.uk
            """),
        ],
        passing: [
            Example("""
            cookies:
              - name: session
                value: abc
                domain: example.github.io
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard !policy.cookies.isEmpty else { return }
        let suffixes = context.facts.publicSuffixes
        for cookie in policy.cookies {
            let domain = cookie.domain.value.lowercased().drop { $0 == "." }
            guard !domain.isEmpty, suffixes.isListedPublicSuffix(String(domain)) else { continue }
            context.report("the domain of cookie '\(cookie.name.value)' is '\(domain)', a public suffix: browsers refuse to set it",
                           at: cookie.domain.location, hint: "name the site's own domain, for example 'yourname.\(domain)'")
        }
    }
}
