import WebPolicyRuntime

struct HostNonASCIIRule: HostRule {
    static let problemKind = HostProblem.Kind.nonASCII

    /// IDNA to punycode, as URL parsing does (UTS #46); a `*.` prefix kept.
    static func fixed(_ host: String) -> (description: String, host: String)? {
        let wildcard = host.hasPrefix("*.")
        guard let ascii = Punycode.toASCII(host: wildcard ? String(host.dropFirst(2)) : host) else { return nil }
        let fixed = (wildcard ? "*." : "") + ascii
        return ("write '\(fixed)'", fixed)
    }

    static let description = RuleDescription(
        id: "host-non-ascii",
        name: "Host Non-ASCII",
        category: .hosts,
        defaultSeverity: .error,
        summary: "Internationalised hosts must be written in their punycode (`xn--`) form.",
        rationale: """
        Browsers convert internationalised domain names to ASCII (UTS #46, "domain to ASCII") \
        before anything else sees them: WebKit's url-filters run over the punycode host, WebKit \
        refuses non-ASCII domains in `if-domain` ("Use punycode to encode non-ASCII \
        characters"), and ATS keys are compared as ASCII. The message suggests the punycode \
        spelling of the host.
        """,
        enforcedBySchema: true,
        failing: [
            Example("""
            http-allowlist:
              - host: m↓ünchen.example
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: xn--mnchen-3ya.example
                reason: The kiosk firmware serves plain http only.
            """),
        ]
    )
}
