import WebPolicyRuntime

struct HostWildcardPositionRule: HostRule {
    static let problemKind = HostProblem.Kind.wildcard

    static let description = RuleDescription(
        id: "host-wildcard-position",
        name: "Host Wildcard Position",
        category: .hosts,
        defaultSeverity: .error,
        summary: "`*` may only appear as a leading `*.` label, and never in a cookie domain.",
        rationale: """
        webpolicy's one wildcard form is `*.example.com`: any subdomain of example.com (not \
        example.com itself, which is listed separately). It is what the compiler can translate \
        for every target — an ATS domain with `NSIncludesSubdomains`, a WebKit url-filter, an \
        interception match. WebKit's own `*example.com` (domain and subdomains) and mid-name \
        wildcards (`www.*.example.com`) have no ATS or cookie equivalent. A cookie with a \
        Domain already covers its subdomains (RFC 6265 §5.1.3), so cookie domains take no \
        wildcard. Remember to quote patterns starting with `*`: unquoted, YAML reads them as \
        aliases.
        """,
        enforcedBySchema: true,
        failing: [
            Example("""
            http-allowlist:
              - host: "↓*example.com"
            """),
            Example("""
            content-rules:
              - action: block
                hosts: ["ads.↓*.example.net"]
            """),
            Example("""
            cookies:
              - name: session
                value: abc
                domain: "↓*.example.com"
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                hosts: ["*.ads.example.com"]
            cookies:
              - name: session
                value: abc
                domain: example.com
            """),
        ]
    )
}
