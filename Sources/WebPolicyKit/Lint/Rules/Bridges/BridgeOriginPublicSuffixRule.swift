import WebPolicyRuntime

/// The Public Suffix List: anyone can register a site under a public suffix.
struct BridgeOriginPublicSuffixRule: LintRule {
    static let description = RuleDescription(
        id: "bridge-origin-public-suffix",
        name: "Bridge Open to a Public Suffix",
        category: .bridges,
        defaultSeverity: .error,
        summary: "A bridge origin on a public suffix (`*.com`, `*.github.io`) admits every site anyone registers under it.",
        rationale: """
        A public suffix (the Public Suffix List: `com`, `co.uk`, `github.io`, `netlify.app`) is \
        where anyone registers a site; `*.github.io` is every GitHub Pages site in the world. A \
        bridge whose origins include one lets each of those sites' pages post to the app's \
        handler, should the view ever show one (OWASP MASTG-TEST-0078). Name your own \
        registrable domain, or the exact hosts.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0068"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-749", "CWE-183"]),
        failing: [
            Example("""
            bridges:
              - name: nativeBridge
                origins: [↓"*.github.io"]
            """),
        ],
        passing: [
            Example("""
            bridges:
              - name: nativeBridge
                origins: ["shopco.github.io"]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        let suffixes = context.facts.publicSuffixes
        for bridge in policy.bridges {
            for origin in bridge.originScopes {
                guard let scope = origin.scope, suffixes.isListedPublicSuffix(scope.host) else { continue }
                context.report("'\(scope.host)' is a public suffix: bridge '\(bridge.name.value)' admits every site anyone registers under it",
                               at: origin.pattern.location, hint: "name the sites you mean, such as 'yourname.\(scope.host)'")
            }
        }
    }
}
