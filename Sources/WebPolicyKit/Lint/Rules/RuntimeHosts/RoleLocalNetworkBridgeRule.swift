import WebPolicyRuntime

/// A bridge open to a role bound over plain http on the local network: what that network can
/// still do.
struct RoleLocalNetworkBridgeRule: LintRule {
    static let description = RuleDescription(
        id: "role-local-network-bridge",
        name: "Bridge Open to a Local-Network Server Over HTTP",
        category: .runtimeHosts,
        defaultSeverity: .info,
        summary: "A bridge admits a role that may be bound to plain http on the local network.",
        rationale: """
        `http: local-network` is the honest policy for a self-hosted server without a \
        certificate: only a host on the local network — what Apple's `NSAllowsLocalNetworking` \
        names — is reached over plain http. It is not a secure channel: any device on that \
        network (a guest's phone, a compromised plug) can answer as the server or rewrite its \
        pages, and their scripts then call the app's native code through the bridge (OWASP \
        MASTG-TEST-0078). Keep the bridge's methods to what such a device may do, and prefer \
        the server's https address where it has one.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-319"]),
        failing: [
            Example("""
            runtime-hosts:
              server:
                schemes: [https, http]
                http: local-network
            bridges:
              - name: externalApp
                origins: [↓"${server}"]
            """),
        ],
        passing: [
            Example("""
            runtime-hosts:
              server:
                description: The server the user signed in to, over https.
            bridges:
              - name: externalApp
                origins: ["${server}"]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for bridge in policy.bridges where bridge.schemes == nil || bridge.schemeNames.contains("http") {
            for origin in bridge.origins?.value ?? [] {
                guard let role = HostScope(pattern: origin.value).role, let host = policy.runtimeHost(named: role),
                      host.schemeNames.contains("http"), host.httpValue == .localNetwork else { continue }
                context.report("bridge '\(bridge.name.value)' admits \(host.reference), which may be bound to plain http on the local network: any device on that network can rewrite its pages and call the bridge",
                               at: origin.location, hint: "keep '\(bridge.name.value)' to what a device on the user's network may do, or bind the server over https")
            }
        }
    }
}
