import WebPolicyRuntime

/// A scheme-allowlist entry that an earlier one already admits entirely.
struct SchemeDuplicateRule: LintRule {
    static let description = RuleDescription(
        id: "scheme-duplicate",
        name: "Scheme Listed Twice",
        category: .schemes,
        defaultSeverity: .warning,
        summary: "A scheme-allowlist entry that repeats an earlier one, or that an earlier entry for the whole scheme already admits.",
        rationale: """
        The scheme gate takes the first entry that admits a URL (docs/semantics.md), and \
        Apple's `LSApplicationQueriesSchemes`, which compile writes from these entries, lists \
        each scheme once. An entry for a scheme that an \
        earlier entry admits without `hosts` or `paths`, or that repeats an earlier entry's \
        limits, never decides anything: removing it changes nothing, while a reader takes it \
        for the limit that applies. Entries for one scheme with different `hosts` or `paths` \
        are not duplicates — each admits its own URLs.
        """,
        failing: [
            Example("""
            scheme-allowlist:
              - scheme: mailto
              - scheme: ↓mailto
            """),
            Example("""
            scheme-allowlist:
              - scheme: navidapro
              - scheme: ↓navidapro
                hosts: [healthmagazin]
            """),
        ],
        passing: [
            Example("""
            scheme-allowlist:
              - scheme: navidapro
                hosts: [healthmagazin]
              - scheme: navidapro
                hosts: [shop]
            """),
        ]
    )

    /// What an entry admits: its scheme, and its host and path limits (nil: any).
    private struct Scope: Hashable {
        let scheme: String
        let hosts: [String]?
        let paths: [String]?
    }

    func check(_ policy: Policy, _ context: inout RuleContext) {
        var seen: [Scope: SchemeAllowlistEntry] = [:]
        for entry in policy.schemeAllowlist {
            let scheme = entry.scheme.value.lowercased()
            let scope = Scope(scheme: scheme, hosts: entry.hosts.map { $0.value.map { $0.value.lowercased() }.sorted() },
                              paths: entry.paths.map { $0.value.map(\.value).sorted() })
            let whole = Scope(scheme: scheme, hosts: nil, paths: nil)
            if let earlier = seen[scope] ?? seen[whole] {
                let repeats = seen[scope] != nil
                context.report(repeats ? "\(scheme): is already on the scheme-allowlist with the same limits" : "\(scheme): is already admitted, with any host and path, by an earlier entry",
                               at: entry.scheme.location, hint: repeats ? "remove this entry" : "remove this entry, or add the limits to the first one",
                               notes: [Diagnostic.Note("the earlier entry", at: earlier.scheme.location)])
                continue
            }
            seen[scope] = entry
        }
    }
}
