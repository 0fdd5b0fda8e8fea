import WebPolicyRuntime

/// ATS `NSExceptionDomains`: no wildcards; `NSIncludesSubdomains` covers the apex too.
struct HostWildcardApexRule: LintRule {
    static let description = RuleDescription(
        id: "host-wildcard-apex",
        name: "Wildcard Allows the Apex Too",
        category: .hosts,
        defaultSeverity: .warning,
        summary: "`*.example.com` in the http allowlist also allows plain http to `example.com` once compiled.",
        rationale: """
        ATS has no "subdomains only" exception. Apple's `NSExceptionDomains` documentation: \
        "Don't use `*.example.com`. Instead, use `example.com` and set NSIncludesSubdomains to \
        YES." — which covers example.com itself too. So `webpolicy compile` writes \
        `*.example.com` as `example.com` with `NSIncludesSubdomains`, and the app then allows \
        plain http to the apex, while the policy reads as if it did not. Write what the app \
        will do: `host: example.com` with `include-subdomains: true`.
        """,
        failing: [
            Example("""
            http-allowlist:
              - host: ↓"*.example.com"
                reason: Lab devices.
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: example.com
                include-subdomains: true
                reason: Lab devices.
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for entry in policy.httpAllowlist where !entry.scope.includesHost {
            let apex = String(entry.host.value.dropFirst(2))
            // The simulator reads `*.x` as subdomains only, so the fix changes what it says.
            var fix: Fix?
            if let host = context.fixes.replace(entry.host, with: apex),
               let flag = context.fixes.set("include-subdomains", to: "true", existing: entry.includeSubdomains?.location, besides: entry.host) {
                fix = Fix("write 'host: \(apex)' with 'include-subdomains: true'", edits: [host, flag], changesMeaning: true)
            }
            context.report("'\(entry.host.value)' compiles to an ATS exception for \(apex) and its subdomains: plain http to \(apex) itself is allowed too",
                           at: entry.host.location, hint: "write 'host: \(apex)' with 'include-subdomains: true'", fix: fix)
        }
    }
}
