import WebPolicyRuntime

/// An intercepted web host that other sections also govern.
struct InterceptionOverlapRule: LintRule {
    static let description = RuleDescription(
        id: "interception-overlap",
        name: "Intercepted Host Governed Elsewhere",
        category: .interception,
        defaultSeverity: .warning,
        summary: "A host that http(s) interception answers should not also be on the http allowlist or in content rules' `hosts`.",
        rationale: """
        WebKit applies content rules before any load reaches the app, and the scheme gate \
        comes next (docs/semantics.md): a content rule \
        that blocks the host stops the request before the interception rule sees it, and an \
        http-allowlist entry for a host the app answers itself is an ATS exception \
        (`NSExceptionAllowsInsecureHTTPLoads`, which App Review asks to justify) that no \
        request needs. Either the interception rule or the other entry is dead, and a reader \
        cannot tell which was meant.
        """,
        failing: [
            Example("""
            http-allowlist:
              - host: api.example.com
                reason: The staging API has no certificate.
            interception:
              - scheme: http
                hosts: [↓api.example.com]
                handler: APIStubHandler
            target:
              distribution: development
            """, alsoReportedBy: ["interception-web-scheme"]),
        ],
        passing: [
            Example("""
            interception:
              - scheme: com.example.app-api
                handler: APIStubHandler
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        let web = policy.interception.filter { WebKitSchemes.web.contains($0.scheme.value.lowercased()) }
        guard !web.isEmpty else { return }
        let contentRuleHosts = HostPatternIndex(policy.contentRules.flatMap { $0.trigger.hosts?.value ?? [] })
        for rule in web where WebKitSchemes.web.contains(rule.scheme.value.lowercased()) {
            for host in rule.hosts?.value ?? [] {
                let name = host.value.lowercased()
                let scope = HostScope(pattern: name)
                if let entry = policy.httpAllowlist.first(where: { $0.scope.intersects(scope) }) {
                    context.report("\(name) is intercepted and also on the http-allowlist (\(entry.host.value))",
                                   at: host.location, hint: "drop the http-allowlist entry if the app answers these requests itself",
                                   notes: [Diagnostic.Note("the http-allowlist entry", at: entry.host.location)])
                } else if let other = contentRuleHosts.firstOverlapping(scope) {
                    context.report("\(name) is intercepted and also named by a content rule (\(other.value)), which runs first",
                                   at: host.location, hint: "a content rule that blocks it stops the request before interception",
                                   notes: [Diagnostic.Note("the content rule's host", at: other.location)])
                }
            }
        }
    }
}
