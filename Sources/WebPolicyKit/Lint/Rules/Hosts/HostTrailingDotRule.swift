import WebPolicyRuntime

struct HostTrailingDotRule: HostRule {
    static let problemKind = HostProblem.Kind.trailingDot

    /// The same name without its final dot: certain, since that is the only spelling ATS,
    /// url-filters and cookie domains compare equal to what the web view loads.
    static func fixed(_ host: String) -> (description: String, host: String)? {
        var trimmed = Substring(host)
        while trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty, !trimmed.hasSuffix("*") else { return nil }
        return ("write '\(trimmed)'", String(trimmed))
    }

    static let description = RuleDescription(
        id: "host-trailing-dot",
        name: "Host Trailing Dot",
        category: .hosts,
        defaultSeverity: .warning,
        summary: "A host should not end with a dot.",
        rationale: """
        `example.com.` is the fully qualified spelling of `example.com`, but nothing in a web \
        view compares them as equal: ATS treats them as different names ("example.com. matches \
        only example.com."), WebKit's url-filters see the host as the URL spells it, and cookie \
        domains compare strings. Write the host without the dot.
        """,
        enforcedBySchema: true,
        failing: [
            Example("""
            http-allowlist:
              - host: www.example.com↓.
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: www.example.com
                reason: The kiosk firmware serves plain http only.
            """),
        ]
    )
}
