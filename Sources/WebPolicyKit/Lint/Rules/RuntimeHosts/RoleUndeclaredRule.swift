import WebPolicyRuntime

/// A `${role}` that no `runtime-hosts` entry declares binds to nothing, ever.
struct RoleUndeclaredRule: LintRule {
    static let description = RuleDescription(
        id: "role-undeclared",
        name: "Undeclared Role",
        category: .runtimeHosts,
        defaultSeverity: .error,
        summary: "A host pattern names a role (`${server}`) that `runtime-hosts` does not declare.",
        rationale: """
        An entry written with `${server}` matches the host the app binds the role to at run \
        time, and no host while nothing is bound. A role `runtime-hosts` does not declare can \
        never be bound — the runtime refuses the binding, as Apple's `NSAllowsLocalNetworking` \
        would never be asked for it in the ATS fragment — so the entry silently matches \
        nothing: a bridge nobody can call, a page the view refuses. It is nearly always a typo.
        """,
        failing: [
            Example("""
            runtime-hosts:
              server:
                description: The server the user signed in to.
            navigation:
              pages:
                - host: ↓"${sever}"
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
        let declared = policy.runtimeHosts.map(\.name.value)
        for reference in policy.roleReferences where !declared.contains(reference.role) {
            let known = declared.isEmpty ? "the policy declares no runtime-hosts" : "the roles are " + declared.map { "${\($0)}" }.joined(separator: ", ")
            let suggestion = Suggestions.closest(to: reference.role, in: declared).map { " (did you mean ${\($0)}?)" } ?? ""
            context.report("\(reference.place) names the role ${\(reference.role)}, which runtime-hosts does not declare\(suggestion): it matches no host, ever (\(known))",
                           at: reference.text.location, hint: "declare it under runtime-hosts, or name a declared role")
        }
    }
}
