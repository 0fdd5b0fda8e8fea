import WebPolicyRuntime

/// `canOpenURL`: at most 50 `LSApplicationQueriesSchemes` entries (iOS 15+), 25 (iOS 27+).
struct SchemeQueryLimitRule: LintRule {
    static let description = RuleDescription(
        id: "scheme-query-limit",
        name: "Too Many Queried Schemes",
        category: .schemes,
        defaultSeverity: .warning,
        summary: "iOS honours only the first 50 `LSApplicationQueriesSchemes` entries (25 from iOS 27).",
        rationale: """
        The scheme allowlist compiles to `LSApplicationQueriesSchemes`. Apple's `canOpenURL` \
        documentation: "Apps linked on or after iOS 15 are limited to a maximum of 50 entries \
        in the LSApplicationQueriesSchemes key. Apps linked on or after iOS 27 are limited to a \
        maximum of 25 entries" — entries past the limit are ignored and `canOpenURL` returns \
        false for them. Order matters: put the schemes that matter first, or open URLs \
        without asking first (`open(_:options:)` is not limited).
        """,
        failing: [
            Example("""
            scheme-allowlist:
            \((1...50).map { "  - scheme: app\($0)-x" }.joined(separator: "\n"))
              - scheme: ↓app51-x
            """, displayedAs: """
            scheme-allowlist:
              - scheme: app1-x
              # … 49 more
              - scheme: ↓app51-x
            """),
        ],
        passing: [
            Example("""
            scheme-allowlist:
              - scheme: mailto
              - scheme: tel
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        let limit = policy.targetVersion >= OSVersion(27) ? 25 : 50
        var seen: [String] = []
        for entry in policy.schemeAllowlist {
            let scheme = entry.scheme.value.lowercased()
            guard !seen.contains(scheme) else { continue }
            seen.append(scheme)
            guard seen.count == limit + 1 else { continue }
            let total = Set(policy.schemeAllowlist.map { $0.scheme.value.lowercased() }).count
            context.report("\(total) distinct schemes: iOS reads only the first \(limit) LSApplicationQueriesSchemes entries, so canOpenURL fails from '\(scheme)' on",
                           at: entry.scheme.location, hint: "keep at most \(limit) schemes, the important ones first")
        }
    }
}
