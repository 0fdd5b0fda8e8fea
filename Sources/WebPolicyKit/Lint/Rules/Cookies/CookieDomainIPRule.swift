import WebPolicyRuntime

/// RFC 6265 §5.1.3: an IP address never domain-matches another host.
struct CookieDomainIPRule: LintRule {
    static let description = RuleDescription(
        id: "cookie-domain-ip",
        name: "Cookie Domain IP Address",
        category: .cookies,
        defaultSeverity: .warning,
        summary: "A cookie for an IP address can only be host-only: say `host-only: true`.",
        rationale: """
        RFC 6265 §5.1.3: a string domain-matches a domain only when it is identical to it, or \
        the domain is a suffix preceded by a dot *and the string is a host name, not an IP \
        address*. A cookie for `192.168.1.10` is therefore sent to that address only, whatever \
        the policy says about subdomains, and never to a host name that resolves to it \
        (HTTPDNS / IP-direct setups lose their cookies this way). Write `host-only: true` so \
        the policy says what happens.
        """,
        failing: [
            Example("""
            cookies:
              - name: session
                value: abc
                domain: ↓192.168.1.10
            """),
        ],
        passing: [
            Example("""
            cookies:
              - name: session
                value: abc
                domain: 192.168.1.10
                host-only: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for cookie in policy.cookies where !(cookie.hostOnly?.value ?? false) && HostNames.isIPAddress(cookie.domain.value) {
            let fix = context.fixes.set("host-only", to: "true", existing: cookie.hostOnly?.location, besides: cookie.name).map { Fix("set 'host-only: true'", edits: [$0]) }
            context.report("cookie '\(cookie.name.value)' is for the IP address \(cookie.domain.value), which has no subdomains: it is host-only",
                           at: cookie.domain.location, hint: "add 'host-only: true'", fix: fix)
        }
    }
}
