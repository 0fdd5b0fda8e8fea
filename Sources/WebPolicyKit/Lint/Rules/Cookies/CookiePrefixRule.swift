import WebPolicyRuntime

/// RFC 6265bis §4.1.3: the `__Secure-` and `__Host-` name prefixes.
struct CookiePrefixRule: LintRule {
    static let description = RuleDescription(
        id: "cookie-prefix",
        name: "Cookie Name Prefix",
        category: .cookies,
        defaultSeverity: .error,
        summary: "A `__Secure-` cookie must be `secure`; a `__Host-` cookie must be `secure`, `host-only` and on path `/`.",
        rationale: """
        RFC 6265bis §4.1.3 and its storage model (steps 20–21, prefixes matched \
        case-insensitively): a cookie whose name starts with `__Secure-` is ignored unless it \
        has the Secure attribute; one whose name starts with `__Host-` is ignored unless it is \
        Secure, has no Domain attribute (`host-only: true` here) and has `Path=/`. WebKit \
        implements both prefixes, so a cookie that breaks them never reaches the page.
        """,
        failing: [
            Example("""
            cookies:
              - name: ↓__Secure-token
                value: abc
                domain: example.com
            """),
            Example("""
            cookies:
              - name: ↓__Host-session
                value: abc
                domain: example.com
                secure: true
                path: /app
            """),
        ],
        passing: [
            Example("""
            cookies:
              - name: __Secure-token
                value: abc
                domain: example.com
                secure: true
              - name: __Host-session
                value: abc
                domain: www.example.com
                host-only: true
                secure: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for cookie in policy.cookies {
            let name = cookie.name.value.lowercased()
            let secure = cookie.secure?.value ?? false
            if name.hasPrefix("__secure-"), !secure {
                let fix = context.fixes.set("secure", to: "true", existing: cookie.secure?.location, besides: cookie.name).map { Fix("set 'secure: true'", edits: [$0]) }
                context.report("cookie '\(cookie.name.value)' has the __Secure- prefix but is not secure, so browsers ignore it",
                               at: cookie.name.location, hint: "add 'secure: true'", fix: fix)
            } else if name.hasPrefix("__host-") {
                var missing: [String] = []
                if !secure { missing.append("'secure: true'") }
                if !(cookie.hostOnly?.value ?? false) { missing.append("'host-only: true'") }
                if let path = cookie.path?.value, path != "/" { missing.append("'path: /' (not '\(path)')") }
                guard !missing.isEmpty else { continue }
                context.report("cookie '\(cookie.name.value)' has the __Host- prefix but lacks \(missing.joined(separator: ", ")), so browsers ignore it",
                               at: cookie.name.location, hint: "a __Host- cookie is secure, host-only and set on path /")
            }
        }
    }
}
