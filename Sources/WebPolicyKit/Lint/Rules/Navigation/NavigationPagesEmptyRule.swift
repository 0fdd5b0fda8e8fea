import WebPolicyRuntime

/// The verdict pipeline's step 0 (docs/semantics.md): outside `pages`, nothing loads.
struct NavigationPagesEmptyRule: LintRule {
    static let description = RuleDescription(
        id: "navigation-pages-empty",
        name: "Navigation without Pages",
        category: .navigation,
        defaultSeverity: .error,
        summary: "A `navigation` section with no `pages` refuses every web page, the app's own first load included.",
        rationale: """
        With `navigation`, the main frame shows only what `pages` lists: the app's navigation \
        delegate cancels everything else, the app's own `load(_:)` too (WebKit asks the \
        delegate of every navigation, `WKNavigationDelegate.webView(_:decidePolicyFor:)`). \
        Without pages the view stays blank, whatever the rest of the policy says. List the \
        site the view shows — or, for an app that serves its pages itself (an offline reader \
        on its own scheme), that scheme: `- scheme: com.example.reader`.
        """,
        failing: [
            Example("""
            navigation:
              ↓frames:
                - host: maps.example.net
            """),
        ],
        passing: [
            Example("""
            navigation:
              pages:
                - host: shop.example.com
              frames:
                - host: maps.example.net
            """),
            Example("""
            interception:
              - scheme: com.example.reader
                serve: bundle/site
            navigation:
              pages:
                - scheme: com.example.reader
              otherwise: open-externally
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let navigation = policy.navigation, navigation.pages.isEmpty, navigation.schemePages.isEmpty else { return }
        // An app whose pages are its own (an offline reader) lists its scheme, not a site.
        let ownScheme = policy.interception.first { !WebKitSchemes.web.contains($0.scheme.value.lowercased()) }
        let hint = ownScheme.map { "list the site the view shows under navigation.pages, or, when the app serves its pages itself, its scheme: '- scheme: \($0.scheme.value)'" }
            ?? "list the site the view shows under navigation.pages"
        context.report("navigation lists no pages: the view refuses every web page, the app's own first load included", at: navigation.location, hint: hint)
    }
}
