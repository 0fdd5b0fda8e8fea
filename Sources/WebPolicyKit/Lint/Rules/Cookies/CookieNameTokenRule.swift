import WebPolicyRuntime

/// RFC 6265 §4.1.1: `cookie-name = token` (RFC 2616: any CHAR but CTLs and separators).
struct CookieNameTokenRule: LintRule {
    static let separators = Set("()<>@,;:\\\"/[]?={} \t".unicodeScalars)

    static let description = RuleDescription(
        id: "cookie-name-token",
        name: "Cookie Name Token",
        category: .cookies,
        defaultSeverity: .error,
        summary: "A cookie name must be an RFC 6265 token: printable ASCII without separators such as space, `=`, `;` or `,`.",
        rationale: """
        RFC 6265 §4.1.1 defines `cookie-name` as an RFC 2616 `token`: one or more US-ASCII \
        characters other than controls and the separators `( ) < > @ , ; : \\ " / [ ] ? = { }`, \
        space and tab. A name outside the grammar is split, truncated or dropped by cookie \
        parsers, and `HTTPCookie(properties:)` returns nil for some of them — the login the \
        app meant to inject never reaches the web view.
        """,
        enforcedBySchema: true,
        failing: [
            Example("""
            cookies:
              - name: session↓ token
                value: abc
                domain: example.com
            """),
            Example("""
            cookies:
              - name: "↓ä-id"
                value: abc
                domain: example.com
            """),
        ],
        passing: [
            Example("""
            cookies:
              - name: session_token
                value: abc
                domain: example.com
              - name: __Host-id
                value: abc
                domain: www.example.com
                host-only: true
                secure: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for cookie in policy.cookies {
            let scalars = Array(cookie.name.value.unicodeScalars)
            if scalars.isEmpty {
                context.report("the cookie name is empty", at: cookie.name.location)
                continue
            }
            guard let bad = scalars.firstIndex(where: { !$0.isASCII || $0.value < 0x20 || $0.value == 0x7F || Self.separators.contains($0) }) else { continue }
            context.report("the cookie name '\(cookie.name.value)' contains '\(scalars[bad].escaped(asASCII: true))', which a cookie name cannot hold",
                           at: context.location(in: cookie.name, offset: bad),
                           hint: "use letters, digits and -_.!#$%&'*+^`|~ only (an RFC 6265 token)")
        }
    }
}
