import WebPolicyRuntime

/// Public Suffix List: names under a public suffix belong to unrelated owners.
struct HostPublicSuffixWildcardRule: LintRule {
    static let description = RuleDescription(
        id: "host-public-suffix-wildcard",
        name: "Wildcard on a Public Suffix",
        category: .hosts,
        defaultSeverity: .error,
        summary: "`*.github.io`, `*.co.uk` and `include-subdomains` on a public suffix admit every site registered under it.",
        rationale: """
        A public suffix is a name under which anyone can register their own: `co.uk` (the \
        list's ICANN section) or `github.io`, `herokuapp.com`, `vercel.app` (its private \
        section). `*.github.io` in the http allowlist, in content-rule `hosts` or in \
        interception therefore means every GitHub Pages site — every user's. Browsers refuse \
        cookies for such domains for the same reason (RFC 6265 §5.3 step 5). webpolicy checks \
        against the Public Suffix List it ships (Debian's `publicsuffix` snapshot), both \
        sections. Name the sites you mean.
        """,
        standards: .init(cwe: ["CWE-183"]),
        failing: [
            Example("""
            http-allowlist:
              - host: ↓"*.github.io"
                reason: Our docs live on GitHub Pages.
            """),
            Example("""
            http-allowlist:
              - host: ↓co.uk
                include-subdomains: true
                reason: Legacy partners.
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: example.github.io
                reason: Our docs live on GitHub Pages.
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        var patterns: [(text: LocatedString, scope: HostScope)] = []
        patterns += policy.httpAllowlist.map { ($0.host, $0.scope) }
        patterns += policy.contentRules.flatMap { rule in (rule.trigger.hosts?.value ?? []).map { ($0, HostScope(pattern: $0.value)) } }
        patterns += policy.interception.flatMap { rule in (rule.hosts?.value ?? []).map { ($0, HostScope(pattern: $0.value)) } }
        let wide = patterns.filter { $0.scope.includesSubdomains }
        guard !wide.isEmpty else { return }
        let suffixes = context.facts.publicSuffixes
        for (text, scope) in wide {
            let base = scope.host
            guard suffixes.isListedPublicSuffix(base) else { continue }
            context.report("'\(base)' is a public suffix: '\(text.value)' with its subdomains admits every site anyone registers under it",
                           at: text.location, hint: "list the sites you mean, such as 'yourname.\(base)'")
        }
    }
}
