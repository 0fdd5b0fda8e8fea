import WebPolicyRuntime

/// `WKWebViewConfiguration.setURLSchemeHandler(_:forURLScheme:)`: WebKit loads a custom scheme
/// only through a handler the app registered for it; without one the load fails.
struct NavigationPageSchemeUnservedRule: LintRule {
    static let description = RuleDescription(
        id: "navigation-page-scheme-unserved",
        name: "App's Own Pages on a Scheme Nothing Serves",
        category: .navigation,
        defaultSeverity: .error,
        summary: "A `navigation.pages` entry by scheme names a scheme no `interception` rule serves: no page of it ever loads.",
        rationale: """
        `- scheme: zim` under `pages` says the view shows pages the app serves itself, on its \
        own scheme. WebKit loads a custom scheme only through the handler the app registered \
        for it (`WKWebViewConfiguration.setURLSchemeHandler(_:forURLScheme:)`); the policy's \
        `interception` section is that handler. With no rule for the scheme, the scheme gate \
        refuses every page of it and the view stays blank — often a typo of the scheme's name.
        """,
        failing: [
            Example("""
            interception:
              - scheme: com.example.reader
                serve: bundle/site
            navigation:
              pages:
                - scheme: ↓com.example.raeder
            """),
        ],
        passing: [
            Example("""
            interception:
              - scheme: com.example.reader
                serve: bundle/site
            navigation:
              pages:
                - scheme: com.example.reader
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let navigation = policy.navigation, !navigation.schemePages.isEmpty else { return }
        let served = policy.interceptedSchemes
        for page in navigation.schemePages where !served.contains(page.schemeName) {
            let suggestion = Suggestions.closest(to: page.schemeName, in: served.sorted())
            var message = "navigation.pages names the app's own scheme '\(page.schemeName)', but no interception rule serves it: WebKit loads none of its pages"
            if let suggestion { message += "; did you mean '\(suggestion)'?" }
            let fix = suggestion.flatMap { suggestion in
                context.fixes.replace(page.scheme, with: suggestion).map { Fix("write '\(suggestion)'", edits: [$0], changesMeaning: true) }
            }
            context.report(message, at: page.scheme.location,
                           hint: suggestion.map { "write '\($0)'" } ?? "add an interception rule for '\(page.schemeName)', or remove the entry", fix: fix)
        }
    }
}
