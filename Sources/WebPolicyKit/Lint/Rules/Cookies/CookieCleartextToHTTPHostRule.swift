import WebPolicyRuntime

/// RFC 6265 §4.1.2.5 and §8.6: a cookie without Secure goes out over plain http to every host
/// its domain covers — including the http allowlist's.
struct CookieCleartextToHTTPHostRule: LintRule {
    static let description = RuleDescription(
        id: "cookie-cleartext-to-http-host",
        name: "Cookie Sent in Cleartext to a Plain-HTTP Host",
        category: .cookies,
        defaultSeverity: .error,
        summary: "A cookie whose domain covers a host of the http allowlist must be `secure`, or it is sent to that host in cleartext.",
        rationale: """
        A cookie without the Secure attribute is sent with every request to a host its domain \
        covers, over http as over https (RFC 6265 §5.4). A cookie for `shop.example.com`'s \
        domain `example.com` therefore also goes to `legacy-cdn.example.com` when the http \
        allowlist lets the web view load that host over plain http — the session travels in \
        cleartext, readable and replayable by anyone on the network (RFC 6265 §8.6, "Weak \
        Confidentiality"; OWASP MASTG-TEST-0076 asks for exactly this). `simulate --verbose` \
        shows the cookie on those requests. Set `secure: true` (`lint --fix` does): the cookie \
        keeps reaching every https host and stops at the http one. \
        A cookie whose own domain is the plain-http host is meant for it, and is left to \
        `cookie-secure-on-http-host`; a cookie delivered as a `Cookie` header goes only with \
        the app's own first request, which lint cannot see.
        """,
        standards: .init(masvs: ["MASVS-NETWORK-1"], maswe: ["MASWE-0050"], cwe: ["CWE-319"]),
        failing: [
            Example("""
            http-allowlist:
              - host: legacy-cdn.example.com
                reason: Product images from the old CDN, which has no TLS.
            cookies:
              - name: ↓session
                value: "${SESSION_TOKEN}"
                domain: example.com
            """),
            Example("""
            http-allowlist:
              - host: "*.cdn.example.com"
                reason: Image shards without TLS.
            cookies:
              - name: session
                value: abc
                domain: example.com
                secure: ↓false
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: legacy-cdn.example.com
                reason: Product images from the old CDN, which has no TLS.
            cookies:
              - name: session
                value: "${SESSION_TOKEN}"
                domain: example.com
                secure: true
            """),
            Example("""
            http-allowlist:
              - host: legacy-cdn.example.com
                reason: Product images from the old CDN, which has no TLS.
            cookies:
              - name: session
                value: abc
                domain: example.com
                host-only: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for cookie in policy.cookies where !(cookie.secure?.value ?? false) && cookie.via?.value != .header {
            let domain = String(cookie.domain.value.lowercased().drop { $0 == "." })
            let hostOnly = cookie.hostOnly?.value ?? false
            guard let entry = policy.httpAllowlist.first(where: { Self.reaches(domain: domain, hostOnly: hostOnly, entry: $0) }) else { continue }
            let fix = context.fixes.set("secure", to: "true", existing: cookie.secure?.location, besides: cookie.name).map { Fix("set 'secure: true'", edits: [$0]) }
            context.report("cookie '\(cookie.name.value)' is not secure, and its domain \(domain) covers \(entry.host.value), which the http-allowlist loads over plain http: the cookie goes there in cleartext",
                           at: cookie.secure?.location ?? cookie.name.location, hint: "add 'secure: true'",
                           notes: [Diagnostic.Note("the http-allowlist entry", at: entry.host.location)], fix: fix)
        }
    }

    /// Whether a cookie for `domain` reaches a host the entry serves over http, other than
    /// the one the cookie is for (that case is `cookie-secure-on-http-host`'s).
    static func reaches(domain: String, hostOnly: Bool, entry: HTTPAllowlistEntry) -> Bool {
        // The cookie is for the http host itself (or one under a wide entry).
        if entry.isOwnHost(ofCookieDomain: domain) { return false }
        // A host-only cookie goes to its own host alone.
        if hostOnly { return false }
        // A domain cookie reaches the entry's host, or a host under it.
        return HostScope.isWithin(entry.scope.host, domain)
    }
}
