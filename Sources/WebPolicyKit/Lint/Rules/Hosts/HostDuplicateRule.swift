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
        let scopes = policy.httpAllowlist.map { entry -> (host: String, subdomains: Bool) in
            let host = entry.host.value.lowercased()
            return host.hasPrefix("*.") ? (String(host.dropFirst(2)), true) : (host, entry.includeSubdomains?.value ?? false)
        }
        for (index, entry) in policy.httpAllowlist.enumerated() {
            let mine = scopes[index]
            let cover = scopes.indices.first { other in
                guard other != index else { return false }
                let theirs = scopes[other]
                if theirs == mine { return other < index }  // the later of two equal entries repeats
                return theirs.subdomains && HostNames.isWithin(mine.host, theirs.host) && (mine.host != theirs.host || !mine.subdomains)
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
