import WebPolicyRuntime

/// The verdict pipeline's scheme gate (docs/semantics.md), ATS on the device.
struct NavigationHTTPNotAllowlistedRule: LintRule {
    static let description = RuleDescription(
        id: "navigation-http-not-allowlisted",
        name: "HTTP Page Not on the HTTP Allowlist",
        category: .navigation,
        defaultSeverity: .error,
        summary: "A `navigation` entry that admits plain http needs its host on the http allowlist, or nothing it admits ever loads.",
        rationale: """
        `navigation` decides where the view may go; whether it may use plain http to get there \
        is the http allowlist's to say — App Transport Security on the device (Apple, \
        "NSAppTransportSecurity"), the scheme gate in simulate. An entry that lists `http` for a \
        host the allowlist does not name is dead: ATS refuses every such load. Add the host, \
        with its reason, to the http allowlist, or drop `http`.
        """,
        standards: .init(masvs: ["MASVS-NETWORK-1"], maswe: ["MASWE-0050"], cwe: ["CWE-319"]),
        failing: [
            Example("""
            navigation:
              pages:
                - host: legacy.example.com
                  schemes: [https, ↓http]
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: legacy.example.com
                reason: The old catalogue has no TLS.
            navigation:
              pages:
                - host: legacy.example.com
                  # webpolicy:disable-next-line navigation-entry-insecure -- read-only catalogue, moving to https
                  schemes: [https, http]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let navigation = policy.navigation else { return }
        let allowlist = policy.httpAllowlist.map { $0.scope }
        // A role's plain http is its own: ATS's key comes from the role (runtime-hosts).
        for entry in navigation.pages + navigation.frames where entry.scope.role == nil {
            guard let http = entry.schemes?.value.first(where: { $0.value.lowercased() == "http" }) else { continue }
            let host = entry.scope.sampleHost
            guard !allowlist.contains(where: { $0.matches(host) }) else { continue }
            context.report("\(entry.host.value) is admitted over plain http, but the http-allowlist does not name it: ATS refuses every such load",
                           at: http.location, hint: "add \(entry.host.value) to the http-allowlist with its reason, or drop 'http'")
        }
    }
}
