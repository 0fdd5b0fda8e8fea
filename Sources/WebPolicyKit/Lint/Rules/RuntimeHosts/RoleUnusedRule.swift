import WebPolicyRuntime

/// A role no entry names admits nothing: a binding of it changes no decision.
struct RoleUnusedRule: LintRule {
    static let description = RuleDescription(
        id: "role-unused",
        name: "Unused Role",
        category: .runtimeHosts,
        defaultSeverity: .warning,
        summary: "A `runtime-hosts` role that no host pattern names.",
        rationale: """
        A role means something only through the entries written with it: a page, a bridge's \
        origin, an http-allowlist entry, a cookie's domain. One no entry names still asks the \
        ATS fragment for Apple's `NSAllowsLocalNetworking` when it may use plain http, and the \
        app's binding of it changes no decision — a key in Info.plist for nothing, and a policy \
        that says less than a reader thinks.
        """,
        failing: [
            Example("""
            runtime-hosts:
              ↓server:
                description: The server the user signed in to.
            """),
        ],
        passing: [
            Example("""
            runtime-hosts:
              server:
                description: The server the user signed in to.
            navigation:
              pages:
                - host: "${server}"
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        let named = Set(policy.roleReferences.map(\.role))
        for role in policy.runtimeHosts where !named.contains(role.name.value) {
            context.report("no entry names the role \(role.reference): binding it changes no decision",
                           at: role.name.location, hint: "write \"\(role.reference)\" where its pages, bridges or cookies go, or remove the role")
        }
    }
}
