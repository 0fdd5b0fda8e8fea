import WebPolicyRuntime

/// A credential the policy sends to a plain-http host on purpose is still a credential in
/// cleartext.
struct CookieCredentialCleartextRule: LintRule {
    static let description = RuleDescription(
        id: "cookie-credential-cleartext",
        name: "Credential Cookie for a Plain-HTTP Host",
        category: .cookies,
        defaultSeverity: .warning,
        summary: "A cookie that holds a credential (a session, a token) and is not `secure` goes in cleartext to its own host when the http allowlist serves that host over plain http.",
        rationale: """
        A cookie meant for a host the http allowlist loads over plain http reaches it — that is \
        what the team asked for, and `cookie-cleartext-to-http-host` leaves it alone. But when \
        the cookie carries a credential (its name or the placeholder its value comes from says \
        session, token, auth, secret, key…), every request to that host hands it to anyone on \
        the network, who can read and replay it (RFC 6265 §8.6; OWASP MASVS-NETWORK-1, \
        MASTG-TEST-0076: sensitive data over cleartext). Serve the host over https and make the \
        cookie `secure`. If the host cannot move yet and the risk is accepted, say so where the \
        cookie is written: `# webpolicy:disable-next-line cookie-credential-cleartext -- why`.
        """,
        standards: .init(masvs: ["MASVS-NETWORK-1"], maswe: ["MASWE-0050"], cwe: ["CWE-319"]),
        failing: [
            Example("""
            http-allowlist:
              - host: legacy-cms.example.com
                reason: The CMS preview server has no TLS.
            cookies:
              - name: ↓cms_preview
                value: "${CMS_PREVIEW_TOKEN}"
                domain: legacy-cms.example.com
                host-only: true
            """),
        ],
        passing: [
            Example("""
            http-allowlist:
              - host: legacy-cms.example.com
                reason: The CMS preview server has no TLS.
            cookies:
              - name: cms_theme
                value: dark
                domain: legacy-cms.example.com
                host-only: true
            """),
            Example("""
            http-allowlist:
              - host: legacy-cms.example.com
                reason: The CMS preview server has no TLS.
            cookies:
              # The preview server's login is accepted in cleartext until it moves to https (CMS-412).
              # webpolicy:disable-next-line cookie-credential-cleartext -- accepted until CMS-412
              - name: cms_preview
                value: "${CMS_PREVIEW_TOKEN}"
                domain: legacy-cms.example.com
                host-only: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for cookie in policy.cookies where !(cookie.secure?.value ?? false) && cookie.via?.value != .header {
            guard CredentialCookie.isCredential(name: cookie.name.value, value: cookie.value.value) else { continue }
            let domain = String(cookie.domain.value.lowercased().drop { $0 == "." })
            // A domain that also covers other plain-http hosts is `cookie-cleartext-to-http-host`'s error.
            guard let entry = policy.httpAllowlist.first(where: { $0.isOwnHost(ofCookieDomain: domain) }) else { continue }
            context.report("cookie '\(cookie.name.value)' holds a credential and is not secure: every request to \(entry.host.value), which the http-allowlist loads over plain http, sends it in cleartext",
                           at: cookie.name.location,
                           hint: "serve \(entry.host.value) over https and set 'secure: true'; if the risk is accepted, suppress this on the cookie with the reason",
                           notes: [Diagnostic.Note("the http-allowlist entry", at: entry.host.location)])
        }
    }
}
