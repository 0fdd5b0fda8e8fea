import WebPolicyRuntime

struct HostSyntaxRule: HostRule {
    static let problemKind = HostProblem.Kind.syntax

    static let description = RuleDescription(
        id: "host-syntax",
        name: "Host Syntax",
        category: .hosts,
        defaultSeverity: .error,
        summary: "A host must be a valid host name: labels of letters, digits and hyphens, 1–63 characters each, 253 in all.",
        rationale: """
        Hosts in a policy end up as App Transport Security `NSExceptionDomains` keys, WebKit \
        url-filters and cookie domains, all of which compare host names exactly. A character \
        that cannot appear in a host name (a space, `!`, `%`), an empty label (`a..b`), a label \
        longer than 63 characters or starting or ending with `-` (RFC 1034 §3.5, RFC 1123 §2.1) \
        can never match a real request, so the entry silently does nothing. `_` is accepted, as \
        WHATWG URLs accept it.
        """,
        enforcedBySchema: true,
        failing: [
            Example("""
            http-allowlist:
              - host: cms↓!preview.example.com
                reason: CMS preview server without TLS
            """),
            Example("""
            http-allowlist:
              - host: "a.↓.example.com"
            """),
            Example("""
            content-rules:
              - action: block
                hosts: [ads.example.net, ↓-tracker.example.net]
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: www.example.com
                reason: CMS preview server without TLS
              - host: staging.example.com
                include-subdomains: true
                reason: Staging has no certificates.
              - host: printer.local
                reason: The office printer.
              - host: xn--mnchen-3ya.de
                reason: A partner without TLS.
            """),
        ]
    )
}
