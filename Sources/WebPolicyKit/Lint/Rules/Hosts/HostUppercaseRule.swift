import WebPolicyRuntime

struct HostUppercaseRule: HostRule {
    static let problemKind = HostProblem.Kind.uppercase

    static func fixed(_ host: String) -> (description: String, host: String)? {
        ("write '\(host.lowercased())'", host.lowercased())
    }

    static let description = RuleDescription(
        id: "host-uppercase",
        name: "Host Uppercase",
        category: .hosts,
        defaultSeverity: .error,
        summary: "Hosts must be written in lowercase.",
        rationale: """
        URL parsing lowercases hosts, so requests never carry uppercase host names. ATS \
        `NSExceptionDomains` keys must be lowercase (Apple: "example.com, not EXAMPLE.COM"), and \
        WebKit refuses a rule list whose `if-domain` has an uppercase letter \
        (`JSONDomainNotLowerCaseASCII`, "Domains must be lower case ASCII"). A mixed-case host \
        in a policy is at best a different spelling of a lowercase one and at worst dead.
        """,
        enforcedBySchema: true,
        failing: [
            Example("""
            http-allowlist:
              - host: www.↓Example.com
            """),
            Example("""
            cookies:
              - name: session
                value: abc
                domain: ↓EXAMPLE.com
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: www.example.com
                reason: The kiosk firmware serves plain http only.
            """),
        ]
    )
}
