import WebPolicyKit
import WebPolicyRuntime

/// `canOpenURL` "always returns false for undeclared schemes" (Apple): the allowlist's
/// schemes belong in `LSApplicationQueriesSchemes` when the app asks before opening.
struct QueriesSchemesMismatchRule: AuditRule {
    static let description = RuleDescription(
        id: "queries-schemes-mismatch",
        name: "LSApplicationQueriesSchemes Against scheme-allowlist",
        category: .appCode,
        defaultSeverity: .warning,
        summary: "The app asks `canOpenURL` while an allowlisted scheme is missing from `LSApplicationQueriesSchemes` (the answer is always no), or the plist queries schemes the policy never hands to the system.",
        rationale: """
        The runtime hands allowlisted schemes to the system; an app that first asks \
        `canOpenURL` gets false for every scheme its Info.plist does not declare (Apple, \
        `canOpenURL(_:)`; at most 50 entries count, 25 for apps linked on iOS 27). A queried \
        scheme the policy does not allow is reported as info: the app can probe for other \
        apps with it, which no policy reviewer sees. Source: Apple, \
        `LSApplicationQueriesSchemes`; ios-domain.md §3; audit-checks.md SC2.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-1"], mastg: ["MASTG-TEST-0075"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(
                .infoPlist("""
                <key>LSApplicationQueriesSchemes</key>
                <array>
                    <string>tel</string>
                </array>
                """),
                .init("App/Links.swift", """
                func canCall(_ url: URL) -> Bool {
                    UIApplication.shared.canOpenURL(url)
                }
                """),
                policy: """
                scheme-allowlist:
                  - scheme: tel
                  - scheme: ↓maps
                """),
            .passes(
                .infoPlist("""
                <key>LSApplicationQueriesSchemes</key>
                <array>
                    <string>tel</string>
                    <string>maps</string>
                </array>
                """),
                .init("App/Links.swift", """
                func canCall(_ url: URL) -> Bool {
                    UIApplication.shared.canOpenURL(url)
                }
                """),
                policy: """
                scheme-allowlist:
                  - scheme: tel
                  - scheme: maps
                """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy else { return }
        let plists = app.infoPlists.filter { $0.queriesSchemes != nil }
        let allowed = Set(policy.schemeAllowlist.map { $0.scheme.value.lowercased() })
        let queried = Set(plists.flatMap { $0.queriesSchemes?.schemes ?? [] }.map { $0.value.lowercased() })
        if !app.uses(.canOpenURL).isEmpty, !plists.isEmpty {
            var seen: Set<String> = []
            for entry in policy.schemeAllowlist where !queried.contains(entry.scheme.value.lowercased()) && seen.insert(entry.scheme.value.lowercased()).inserted {
                context.report("the app asks canOpenURL, but LSApplicationQueriesSchemes lacks the allowlisted scheme '\(entry.scheme.value)': the answer for it is always no",
                               at: entry.scheme.location, hint: "add '\(entry.scheme.value)' to LSApplicationQueriesSchemes")
            }
        }
        var reported: Set<String> = []
        for plist in plists {
            for scheme in plist.queriesSchemes?.schemes ?? [] {
                let name = scheme.value.lowercased()
                guard !allowed.contains(name), !["http", "https"].contains(name), !InfoPlist.isPlaceholder(name), reported.insert(name).inserted else { continue }
                context.report("LSApplicationQueriesSchemes lets the app ask about '\(scheme.value)', which scheme-allowlist does not allow", at: scheme.location,
                               hint: "remove it, or allowlist the scheme if web pages may open it", severity: .info)
            }
        }
    }
}
