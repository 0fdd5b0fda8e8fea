import WebPolicyRuntime

/// RFC 6265bis: name plus value over 4096 octets is ignored.
struct CookieSizeRule: LintRule {
    static let limit = 4096

    static let description = RuleDescription(
        id: "cookie-size",
        name: "Cookie Size",
        category: .cookies,
        defaultSeverity: .error,
        summary: "A cookie's name and value together must not exceed 4096 bytes.",
        rationale: """
        RFC 6265bis (storage model): "If the sum of the lengths of the name string and the \
        value string is more than 4096 octets, abort these steps and ignore the cookie \
        entirely." RFC 6265 §6.1 asks user agents for at least 4096 bytes per cookie, so no \
        browser is bound to keep more. A `${NAME}` placeholder counts as written; the app's \
        run-time value may make it longer still.
        """,
        failing: [
            Example("""
            cookies:
              - name: ↓blob
                value: \(String(repeating: "x", count: 4093))
                domain: example.com
            """, displayedAs: """
            cookies:
              - name: ↓blob
                value: xxxxxxxx…   # 4093 characters: 4097 bytes with the name
                domain: example.com
            """),
        ],
        passing: [
            Example("""
            cookies:
              - name: session
                value: abc
                domain: example.com
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for cookie in policy.cookies {
            let size = cookie.name.value.utf8.count + cookie.value.value.utf8.count
            guard size > Self.limit else { continue }
            context.report("cookie '\(cookie.name.value)' is \(size) bytes (name and value), more than the \(Self.limit) browsers keep",
                           at: cookie.name.location, hint: "store the data elsewhere and keep a short token in the cookie")
        }
    }
}
