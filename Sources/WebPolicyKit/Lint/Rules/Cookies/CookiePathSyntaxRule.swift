import WebPolicyRuntime

/// RFC 6265 §4.1.1 `path-value` and §5.2.4.
struct CookiePathSyntaxRule: LintRule {
    static let description = RuleDescription(
        id: "cookie-path-syntax",
        name: "Cookie Path Syntax",
        category: .cookies,
        defaultSeverity: .error,
        summary: "A cookie path must start with `/` and hold no control character or `;`.",
        rationale: """
        RFC 6265 §5.2.4: a Path attribute that does not start with `/` is replaced by the \
        default path (the request path up to its last `/`), so `path: account` silently \
        becomes something else. §4.1.1 forbids controls and `;` in `path-value`: a `;` ends the \
        attribute.
        """,
        enforcedBySchema: true,
        failing: [
            Example("""
            cookies:
              - name: session
                value: abc
                domain: example.com
                path: ↓account
            """),
            Example("""
            cookies:
              - name: session
                value: abc
                domain: example.com
                path: "/a↓;b"
            """),
        ],
        passing: [
            Example("""
            cookies:
              - name: session
                value: abc
                domain: example.com
                path: /account
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for cookie in policy.cookies {
            guard let path = cookie.path else { continue }
            let scalars = Array(path.value.unicodeScalars)
            if scalars.first != "/" {
                context.report("the path of cookie '\(cookie.name.value)' must start with '/', but is '\(path.value)'",
                               at: context.location(in: path, offset: 0), hint: "write '/\(path.value)'")
            } else if let bad = scalars.firstIndex(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == ";" }) {
                context.report("the path of cookie '\(cookie.name.value)' contains '\(scalars[bad].escaped(asASCII: true))'",
                               at: context.location(in: path, offset: bad), hint: "a cookie path cannot hold ';' or control characters")
            }
        }
    }
}
