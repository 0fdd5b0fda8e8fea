import WebPolicyRuntime

struct HostNotBareRule: HostRule {
    static let problemKind = HostProblem.Kind.notBare

    static let description = RuleDescription(
        id: "host-not-bare",
        name: "Host Not Bare",
        category: .hosts,
        defaultSeverity: .error,
        summary: "A host field holds a host name only: no scheme, user name, port, path, query or fragment.",
        rationale: """
        A pasted URL in a host field (`https://www.example.com/`) matches no host at all. ATS \
        `NSExceptionDomains` keys take no port ("example.com, not example.com:443"), cookie \
        domains take none, and WebKit's domain conditions take none. Put path limits in `paths:` \
        and write schemes in the scheme allowlist.
        """,
        enforcedBySchema: true,
        failing: [
            Example("""
            http-allowlist:
              - host: ↓https://www.example.com/
            """),
            Example("""
            http-allowlist:
              - host: www.example.com↓:8080
            """),
            Example("""
            interception:
              - scheme: https
                hosts: [api.example.com↓/v1]
                handler: APIStub
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: www.example.com
                reason: The kiosk firmware serves plain http only.
            interception:
              - scheme: com.example.app-api
                hosts: [api.example.com]
                paths: [/v1]
                handler: APIStub
            """),
        ]
    )
}
