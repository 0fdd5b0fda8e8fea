import WebPolicyRuntime

/// Public Suffix List, and Cordova's warning on `<allow-navigation href="*">`.
struct NavigationEntryTooWideRule: LintRule {
    static let description = RuleDescription(
        id: "navigation-entry-too-wide",
        name: "Navigation Entry on Every Site",
        category: .navigation,
        defaultSeverity: .error,
        summary: "A `navigation.pages` or `frames` entry of `*`, or of a public suffix with its subdomains, lets the view show any site.",
        rationale: """
        `navigation` exists so that a page cannot take the user — and the session, the token \
        or the bridge the view carries — to a site the app does not know (OWASP MASTG-TEST-0076, \
        "Testing iOS WebViews"). `*` undoes that, as Cordova's documentation warns of \
        `<allow-navigation href="*">`; so does a public suffix with its subdomains — \
        `*.github.io`, `*.co.uk`, `*.vercel.app` — under which anyone registers a site of their \
        own (the Public Suffix List, both its sections). Name the sites the view shows.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0071"], mastg: ["MASTG-TEST-0076"], cwe: ["CWE-183"]),
        failing: [
            Example("""
            navigation:
              pages:
                - host: ↓"*"
            """),
            Example("""
            navigation:
              pages:
                - host: shop.example.com
              frames:
                - host: ↓"*.github.io"
            """),
        ],
        passing: [
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
              frames:
                - host: shop.github.io
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let navigation = policy.navigation else { return }
        for (entry, section) in navigation.pages.map({ ($0, "pages") }) + navigation.frames.map({ ($0, "frames") }) {
            let host = entry.host.value.lowercased()
            if host == "*" {
                context.report("navigation.\(section) admits '*': the view may show any site", at: entry.host.location,
                               hint: "list the sites the view shows; a link elsewhere opens in Safari (otherwise: open-externally)")
                continue
            }
            let scope = entry.scope
            guard scope.includesSubdomains, context.facts.publicSuffixes.isListedPublicSuffix(scope.host) else { continue }
            context.report("'\(scope.host)' is a public suffix: navigation.\(section) admits every site anyone registers under it", at: entry.host.location,
                           hint: "name the sites you mean, such as 'yourname.\(scope.host)'")
        }
    }
}
