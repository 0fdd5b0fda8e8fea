import WebPolicyRuntime

/// http and https belong to the http allowlist and the scheme gate, not to external opening.
struct SchemeAllowlistWebRule: LintRule {
    static let description = RuleDescription(
        id: "scheme-allowlist-web",
        name: "Web Scheme in Scheme Allowlist",
        category: .schemes,
        defaultSeverity: .warning,
        summary: "`http` and `https` do not belong in the scheme allowlist.",
        rationale: """
        The web view loads `https` itself and `http` as the http allowlist allows \
        (docs/semantics.md); the scheme allowlist is for URLs handed to other apps through \
        `UIApplication.open`. Listing `http` or `https` there changes nothing the simulator or \
        the compiled artefacts do, but adds the scheme to `LSApplicationQueriesSchemes`, where \
        it uses one of the 50 entries iOS allows (`canOpenURL`, Apple documentation), and \
        suggests to a reader that web links leave the app. To allow a plain-http host, use the \
        http allowlist.
        """,
        failing: [
            Example("""
            scheme-allowlist:
              - scheme: ↓https
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: legacy.example.com
                reason: The kiosk firmware serves plain http only.
            scheme-allowlist:
              - scheme: mailto
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for entry in policy.schemeAllowlist where WebKitSchemes.web.contains(entry.scheme.value.lowercased()) {
            context.report("\(entry.scheme.value.lowercased()) in the scheme allowlist: web URLs load in the web view, not through another app",
                           at: entry.scheme.location, hint: "remove it; plain-http hosts go in the http-allowlist")
        }
    }
}
