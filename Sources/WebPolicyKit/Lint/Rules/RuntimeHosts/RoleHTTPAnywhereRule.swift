import WebPolicyRuntime

/// `http: anywhere`: plain http to whatever server the user types.
struct RoleHTTPAnywhereRule: LintRule {
    static let description = RuleDescription(
        id: "role-http-anywhere",
        name: "Role Over Plain HTTP Anywhere",
        category: .runtimeHosts,
        defaultSeverity: .warning,
        summary: "A role that may be bound to a plain http server anywhere on the internet.",
        rationale: """
        With `http: anywhere`, the app may bind the role to `http://` a public host: every page, \
        script and message of that server crosses the internet in cleartext, and anyone on the \
        path rewrites it (OWASP MASTG-TEST-0076). The ATS fragment has to ask for Apple's \
        `NSAllowsArbitraryLoadsInWebContent`, which App Review asks about. `http: local-network` \
        keeps plain http for the hosts Apple's `NSAllowsLocalNetworking` names — unqualified \
        names, `.local`, private and link-local addresses — which is where self-hosted servers \
        without a certificate usually live.
        """,
        standards: .init(masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0076"], cwe: ["CWE-319"]),
        failing: [
            Example("""
            runtime-hosts:
              server:
                schemes: [https, http]
                http: ↓anywhere
            navigation:
              pages:
                - host: "${server}"
            """),
        ],
        passing: [
            Example("""
            runtime-hosts:
              server:
                schemes: [https, http]
                http: local-network
            navigation:
              pages:
                - host: "${server}"
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for role in policy.runtimeHosts where role.schemeNames.contains("http") {
            guard let http = role.http, http.value == .anywhere else { continue }
            context.report("\(role.reference) may be bound to a plain http server anywhere: its pages cross the internet in cleartext, and the ATS fragment asks for NSAllowsArbitraryLoadsInWebContent",
                           at: http.location, hint: "write 'http: local-network' to keep plain http for servers on the local network")
        }
    }
}
