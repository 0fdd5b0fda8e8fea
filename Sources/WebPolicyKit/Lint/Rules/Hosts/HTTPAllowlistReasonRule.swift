import WebPolicyRuntime

/// Apple, "Preventing Insecure Network Connections": exceptions need a justification.
struct HTTPAllowlistReasonRule: LintRule {
    static let description = RuleDescription(
        id: "http-allowlist-reason",
        name: "HTTP Allowlist Entry Without Reason",
        category: .hosts,
        defaultSeverity: .warning,
        summary: "Every http-allowlist entry should say why the host cannot use https.",
        rationale: """
        Each entry compiles to `NSExceptionAllowsInsecureHTTPLoads`, one of the exceptions \
        that Apple says "require justification" and "might trigger additional App Store \
        review" ("Preventing Insecure Network Connections"). App Store Connect asks for that \
        justification; the reason written next to the host is the one place it is kept up to \
        date, and a reviewer of the policy sees why plain http is acceptable.
        """,
        failing: [
            Example("""
            http-allowlist:
              - ↓host: legacy.example.com
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: legacy.example.com
                reason: The kiosk firmware serves plain http only.
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for entry in policy.httpAllowlist where (entry.reason?.value ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
            context.report("plain http to \(entry.host.value) has no reason; App Review asks for one", at: entry.location,
                           hint: "add 'reason:' saying why this host cannot use https")
        }
    }
}
