import WebPolicyRuntime

/// RFC 6265 §5.3 step 11: a cookie with the same name, domain and path replaces the old one.
struct CookieDuplicateRule: LintRule {
    static let description = RuleDescription(
        id: "cookie-duplicate",
        name: "Cookie Set Twice",
        category: .cookies,
        defaultSeverity: .error,
        summary: "Two cookies with the same name, domain and path: the cookie store keeps only one.",
        rationale: """
        A cookie is identified by its name, domain and path: "If the cookie store contains a \
        cookie with the same name, domain, and path as the newly created cookie", the new one \
        replaces it (RFC 6265 §5.3, step 11; `WKHTTPCookieStore.setCookie` does the same). Of two \
        such entries only the one set last survives — which one depends on the order the app \
        installs them, and the other's value, expiry and flags are silently lost. Keep one \
        entry, or give them different paths or domains if both are meant.
        """,
        failing: [
            Example("""
            cookies:
              - name: session
                value: "${SESSION_TOKEN}"
                domain: example.com
                secure: true
              - name: ↓session
                value: "${LEGACY_TOKEN}"
                domain: .example.com
                secure: true
            """),
        ],
        passing: [
            Example("""
            cookies:
              - name: session
                value: "${SESSION_TOKEN}"
                domain: example.com
                secure: true
              - name: session
                value: "${API_TOKEN}"
                domain: example.com
                path: /api
                secure: true
            """),
        ]
    )

    private struct Identity: Hashable {
        let name: String
        let domain: String
        let path: String
    }

    func check(_ policy: Policy, _ context: inout RuleContext) {
        var first: [Identity: CookieRule] = [:]
        for cookie in policy.cookies {
            // The domain as the store keeps it: lowercased, a leading dot ignored (RFC 6265
            // §5.2.3); the path "/" when none is given, as compile writes it.
            let identity = Identity(name: cookie.name.value, domain: String(cookie.domain.value.lowercased().drop { $0 == "." }), path: cookie.path?.value ?? "/")
            guard let earlier = first[identity] else {
                first[identity] = cookie
                continue
            }
            context.report("cookie '\(identity.name)' for \(identity.domain)\(identity.path) is already set: the cookie store keeps only one of the two",
                           at: cookie.name.location, hint: "remove one, or give them different paths or domains",
                           notes: [Diagnostic.Note("the first cookie '\(identity.name)'", at: earlier.name.location)])
        }
    }
}
