import WebPolicyRuntime

/// Apple, "Defining a custom URL scheme for your app"; WWDC's scheme-handler advice.
struct SchemeNotNamespacedRule: LintRule {
    static let description = RuleDescription(
        id: "scheme-not-namespaced",
        name: "Custom Scheme Not Namespaced",
        category: .schemes,
        defaultSeverity: .warning,
        summary: "A custom scheme should be namespaced to the app, like `com.example.app-offline`.",
        rationale: """
        Any app can claim any scheme, and when two do, which one iOS picks is undefined \
        (Apple, "Defining a custom URL scheme for your app"); generic names (`app`, `local`, \
        `offline`, `assets`) are the ones most likely to collide, and a future WebKit may \
        claim a short name for itself, which makes registering it crash \
        (`scheme-handler-builtin`). A reverse-DNS scheme (`com.example.app-offline`) or one with \
        the app's name and a hyphen (`exampleapp-res`) cannot collide by accident. A scheme \
        a published format owns (the ZIM format's `zim`, shared by every reader of it) is not \
        the app's to rename: a `navigation.pages` entry for the scheme that says so in its \
        `reason:` accepts it, as a suppression with a reason would.
        """,
        failing: [
            Example("""
            interception:
              - scheme: ↓offline
                serve: bundle/site
            """),
        ],
        passing: [
            Example("""
            interception:
              - scheme: com.example.app-offline
                serve: bundle/site
              - scheme: exampleapp-res
                serve: bundle/res
            """),
            Example("""
            interception:
              - scheme: zim
                handler: ZimFileSchemeHandler
            navigation:
              pages:
                - scheme: zim
                  reason: the ZIM format's own scheme, which every ZIM reader serves
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        // The app's own pages on a scheme whose entry says why it is shared.
        let pages = policy.navigation?.schemePages ?? []
        let explained = Set(pages.filter { $0.reason != nil }.map(\.schemeName))
        let listed = Set(pages.map(\.schemeName))
        for rule in policy.interception {
            let scheme = rule.scheme.value.lowercased()
            guard !WebKitSchemes.web.contains(scheme), !SchemeHandlerBuiltinRule.builtin.contains(scheme),
                  !scheme.contains("."), !scheme.contains("-"), !explained.contains(scheme) else { continue }
            context.report("the custom scheme '\(scheme)' is not namespaced: another app or a future WebKit may use it too",
                           at: rule.scheme.location,
                           hint: listed.contains(scheme)
                               ? "use a reverse-DNS scheme such as 'com.example.\(scheme)' or, when a published format owns the scheme, say so in the reason of its navigation.pages entry"
                               : "use a reverse-DNS scheme such as 'com.example.\(scheme)'")
        }
    }
}
