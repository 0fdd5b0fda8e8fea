import WebPolicyRuntime

/// RFC 6265 §5.4: a Secure cookie is sent over secure channels only.
struct CookieSecureOnHTTPHostRule: LintRule {
    static let description = RuleDescription(
        id: "cookie-secure-on-http-host",
        name: "Secure Cookie for a Plain-HTTP Host",
        category: .cookies,
        defaultSeverity: .warning,
        summary: "A `secure` cookie is never sent to a host the http allowlist serves over plain http, nor to a role bound over plain http.",
        rationale: """
        RFC 6265 §5.4: "If the cookie's secure-only-flag is true, then the request-uri's \
        scheme must denote a 'secure' protocol". The http allowlist exists for hosts the app \
        loads over plain http; a `secure` cookie meant for such a host never reaches it there \
        (`webpolicy simulate` shows it missing from those requests). Drop `secure` if the \
        host really is http-only, or move the host to https and off the allowlist. The same \
        holds for a cookie on a role (`domain: "${server}"`) whose `schemes` include http: \
        whenever the user's server is bound over plain http, the cookie is neither set nor sent.
        """,
        standards: .init(masvs: ["MASVS-NETWORK-1"], maswe: ["MASWE-0050"], cwe: ["CWE-614"]),
        failing: [
            Example("""
            http-allowlist:
              - host: kiosk.example.com
                reason: The kiosk firmware serves plain http only.
            cookies:
              - name: session
                value: abc
                domain: kiosk.example.com
                secure: ↓true
            """),
            Example("""
            runtime-hosts:
              server:
                schemes: [https, http]
                http: local-network
            cookies:
              - name: companion_app
                value: "1"
                domain: "${server}"
                secure: ↓true
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: kiosk.example.com
                reason: The kiosk firmware serves plain http only.
            cookies:
              - name: session
                value: abc
                domain: www.example.com
                secure: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for cookie in policy.cookies {
            guard let secure = cookie.secure, secure.value else { continue }
            let credential = CredentialCookie.isCredential(name: cookie.name.value, value: cookie.value.value)
            if let role = HostScope(pattern: cookie.domain.value).role {
                guard let host = policy.runtimeHost(named: role), host.schemeNames.contains("http") else { continue }
                context.report("cookie '\(cookie.name.value)' is secure, but \(host.reference) may be bound to plain http: on such a server the cookie is neither set nor sent",
                               at: secure.location,
                               hint: credential ? "keep 'secure' — the cookie holds a credential — and bind the server over https"
                                   : "drop 'secure' if the page needs the cookie on a plain-http server, or let the role use https only",
                               notes: [Diagnostic.Note("the role's schemes", at: host.schemes?.location ?? host.location)])
                continue
            }
            let domain = String(cookie.domain.value.lowercased().drop { $0 == "." })
            // The cookie's own host is served over http. A domain cookie whose domain merely
            // contains an http host (www.example.com under example.com) also reaches https
            // hosts, and is fine.
            guard let entry = policy.httpAllowlist.first(where: { $0.isOwnHost(ofCookieDomain: domain) }) else { continue }
            // A credential keeps `secure`: the advice is to move the host, not to send it in cleartext.
            context.report("cookie '\(cookie.name.value)' is secure, but \(entry.host.value) is on the http-allowlist: over http the cookie is never sent",
                           at: secure.location,
                           hint: credential ? "keep 'secure' — the cookie holds a credential — and serve \(entry.host.value) over https"
                               : "drop 'secure' if the host is http-only, or serve it over https",
                           notes: [Diagnostic.Note("the http-allowlist entry", at: entry.host.location)])
        }
    }
}
