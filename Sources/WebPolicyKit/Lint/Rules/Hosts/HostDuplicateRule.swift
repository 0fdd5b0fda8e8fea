import WebPolicyRuntime

/// An http-allowlist entry that another already covers.
struct HostDuplicateRule: LintRule {
    static let description = RuleDescription(
        id: "host-duplicate",
        name: "Duplicate or Covered Host",
        category: .hosts,
        defaultSeverity: .warning,
        summary: "An http-allowlist entry that repeats another, or that a subdomain-wide entry already covers.",
        rationale: """
        ATS merges the entries into one `NSExceptionDomains` dictionary keyed by domain (Apple, \
        "NSExceptionDomains": `NSIncludesSubdomains` "applies the entry to all subdomains"), so a \
        repeated host is one exception, and a host under an entry with \
        `include-subdomains` (or `*.`) is already allowed. The extra entry changes nothing but \
        suggests the opposite: removing it would not close the exception a reader thinks it \
        closes.
        """,
        failing: [
            Example("""
            http-allowlist:
              - host: example.com
                include-subdomains: true
                reason: Lab devices.
              - host: ↓printer.example.com
                reason: The office printer.
            """),
            Example("""
            http-allowlist:
              - host: legacy.example.com
                reason: Kiosk firmware.
              - host: ↓legacy.example.com
                reason: Kiosk firmware.
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: legacy.example.com
                reason: Kiosk firmware.
              - host: printer.example.com
                reason: The office printer.
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        // What each entry allows: a host, and whether its subdomains come with it.
        struct Scope: Hashable {
            let host: String
            let subdomains: Bool
        }
        let scopes = policy.httpAllowlist.map { entry -> Scope in
            Scope(host: entry.scope.host, subdomains: entry.scope.includesSubdomains)
        }
        // Looked up by name instead of comparing every pair: the first entry of each scope,
        // and the entries that bring their subdomains, by host.
        var firstOfScope: [Scope: Int] = [:]
        var withSubdomains: [String: [Int]] = [:]
        for (index, scope) in scopes.enumerated() {
            if firstOfScope[scope] == nil { firstOfScope[scope] = index }
            if scope.subdomains { withSubdomains[scope.host, default: []].append(index) }
        }
        for (index, entry) in policy.httpAllowlist.enumerated() {
            let mine = scopes[index]
            // The first other entry that repeats this one (an earlier equal one) or brings it
            // with its subdomains: the host itself or a name it ends in after a dot.
            var cover: Int?
            func consider(_ other: Int) { if other != index, cover.map({ other < $0 }) ?? true { cover = other } }
            if let first = firstOfScope[mine], first < index { consider(first) }
            if !mine.subdomains, let others = withSubdomains[mine.host]?.first(where: { $0 != index }) { consider(others) }
            for parent in HostPatternIndex.parents(of: mine.host) {
                if let other = withSubdomains[parent]?.first { consider(other) }
            }
            guard let cover else { continue }
            let coveringEntry = policy.httpAllowlist[cover]
            let repeatsIt = scopes[cover] == mine
            context.report(repeatsIt ? "\(entry.host.value) is already on the http-allowlist" : "\(entry.host.value) is already covered by \(coveringEntry.host.value) and its subdomains",
                           at: entry.host.location, hint: "remove this entry",
                           notes: [Diagnostic.Note(repeatsIt ? "the first entry" : "the covering entry", at: coveringEntry.host.location)])
        }
    }
}
