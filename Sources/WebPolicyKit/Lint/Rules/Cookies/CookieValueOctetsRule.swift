import WebPolicyRuntime

/// RFC 6265 §4.1.1: `cookie-value = *cookie-octet / ( DQUOTE *cookie-octet DQUOTE )`.
struct CookieValueOctetsRule: LintRule {
    static let description = RuleDescription(
        id: "cookie-value-octets",
        name: "Cookie Value Octets",
        category: .cookies,
        defaultSeverity: .error,
        summary: "A cookie value may hold printable ASCII except space, `\"`, `,`, `;` and `\\` (optionally inside one pair of double quotes).",
        rationale: """
        RFC 6265 §4.1.1 allows `cookie-octet = %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E` in \
        a value: no whitespace, double quote, comma, semicolon or backslash, nothing outside \
        ASCII. A `;` ends the cookie early, a space or comma is mangled by some parsers, and a \
        value injected through a `Cookie` header or `document.cookie` is cut at the first such \
        character. Encode such data (base64url, percent-encoding) first. Placeholders such as \
        `${SESSION_TOKEN}` are made of allowed characters; what replaces them at run time must \
        be too.
        """,
        enforcedBySchema: true,
        failing: [
            Example("""
            cookies:
              - name: prefs
                value: "dark↓;large"
                domain: example.com
            """),
            Example("""
            cookies:
              - name: greeting
                value: "hello↓ world"
                domain: example.com
            """),
        ],
        passing: [
            Example("""
            cookies:
              - name: session_token
                value: "${SESSION_TOKEN}"
                domain: example.com
              - name: prefs
                value: '"dark"'
                domain: example.com
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for cookie in policy.cookies {
            let scalars = Array(cookie.value.value.unicodeScalars)
            var body = 0..<scalars.count
            if scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" { body = 1..<scalars.count - 1 }
            guard let bad = body.first(where: { !Self.isCookieOctet(scalars[$0]) }) else { continue }
            context.report("the value of cookie '\(cookie.name.value)' contains '\(scalars[bad].escaped(asASCII: true))', which a cookie value cannot hold",
                           at: context.location(in: cookie.value, offset: bad),
                           hint: "encode the value (base64url or percent-encoding) so it holds no space, '\"', ',', ';', '\\' or non-ASCII character")
        }
    }

    static func isCookieOctet(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x21, 0x23...0x2B, 0x2D...0x3A, 0x3C...0x5B, 0x5D...0x7E: return true
        default: return false
        }
    }
}
