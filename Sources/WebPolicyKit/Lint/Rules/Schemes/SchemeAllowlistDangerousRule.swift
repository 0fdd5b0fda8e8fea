import WebPolicyRuntime

/// Schemes that run script, read files or exist only inside WebKit (ios-domain research §3.5).
struct SchemeAllowlistDangerousRule: LintRule {
    /// Scheme → why it must not be handed on.
    static let schemes: [String: String] = [
        "javascript": "runs script in the current page",
        "vbscript": "runs script in the current page",
        "data": "loads an attacker-written document",
        "file": "reads files from the app's container",
        "blob": "names data that exists only inside WebKit",
        "about": "names pages that exist only inside WebKit",
    ]

    static let description = RuleDescription(
        id: "scheme-allowlist-dangerous",
        name: "Dangerous Scheme Allowed",
        category: .schemes,
        defaultSeverity: .error,
        summary: "`javascript`, `vbscript`, `data`, `file`, `blob` and `about` never belong in the scheme allowlist.",
        rationale: """
        The scheme allowlist says which non-web URLs the navigation delegate may hand to \
        `UIApplication.open`. `javascript:` runs script in the current page and `data:` is an \
        attacker-written document with an opaque origin (WebKit `LegacySchemeRegistry`); WebKit \
        itself refuses content-blocker redirects to `javascript:` \
        (`ContentExtensionError.cpp`). `file:` reads from the app's container. `blob:` and \
        `about:` exist only inside WebKit: no app can open them. A page that offers such a \
        link is attacking, or broken.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-1"], mastg: ["MASTG-TEST-0075"], cwe: ["CWE-939"]),
        failing: [
            Example("""
            scheme-allowlist:
              - scheme: ↓javascript
            """),
            Example("""
            scheme-allowlist:
              - scheme: mailto
              - scheme: ↓file
            """),
        ],
        passing: [
            Example("""
            scheme-allowlist:
              - scheme: mailto
              - scheme: tel
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for entry in policy.schemeAllowlist {
            let scheme = entry.scheme.value.lowercased()
            guard let why = Self.schemes[scheme] else { continue }
            context.report("the scheme allowlist admits \(scheme):, which \(why)", at: entry.scheme.location, hint: "remove this entry")
        }
    }
}
