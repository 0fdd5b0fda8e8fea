import WebPolicyRuntime

/// WKUIDelegate `webView(_:createWebViewWith:for:windowFeatures:)`: returning nil and loading
/// the request in the same view replaces its page.
struct NavigationWindowsReplacePageRule: LintRule {
    static let description = RuleDescription(
        id: "navigation-windows-replace-page",
        name: "Third-Party Windows Replace the App's Page",
        category: .navigation,
        defaultSeverity: .warning,
        summary: "With pages of a third-party site, `new-windows: same-view` lets its windows replace the app's page in the one view.",
        rationale: """
        `new-windows: same-view` loads a `target=_blank` link or a `window.open` in the view \
        itself (the app's `WKUIDelegate.webView(_:createWebViewWith:for:windowFeatures:)` \
        returns nil and loads the request), so the new window replaces the page the user was \
        on — a web view has no tabs and no back button of its own. When `pages` admits a \
        third party's site (a partner the app does not own: outside its app-bound domains, \
        or — without them — another site than the first page entry's), that site's pages open \
        windows as they like, and with `otherwise: open-externally` the app already sends its \
        other links to Safari. Open new windows the same way (`new-windows: open-externally`), so no other \
        site's window takes the user off the app's page (OWASP MASTG-TEST-0076 asks what \
        windows a web view opens). A WebKit for SwiftUI page (iOS 26) has no new-window hook \
        (WebKit's `WKUIDelegateAdapter` implements no `createWebViewWith`): a new window \
        reaches the app as a navigation action without a target frame, and the runtime's \
        `PolicyNavigationDecider` applies `new-windows` to it the same way.
        """,
        failing: [
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
                - host: pay.example-psp.com
              otherwise: open-externally
              new-windows: ↓same-view
            """),
        ],
        passing: [
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
                - host: pay.example-psp.com
              otherwise: open-externally
              new-windows: open-externally
            """),
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
                - host: pay.example-psp.com
              new-windows: same-view
            app-bound-domains:
              domains: [example.com, example-psp.com]
              limit-navigations: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let navigation = policy.navigation, (navigation.otherwise?.value ?? .openExternally) == .openExternally,
              (navigation.newWindows?.value ?? .sameView) == .sameView else { return }
        let suffixes = context.facts.publicSuffixes
        func site(_ entry: NavigationEntry) -> String {
            let host = entry.scope.sampleHost
            let domain = suffixes.registrableDomain(of: host)
            return domain.isEmpty ? host : domain
        }
        // The app's own sites: those it binds as app-bound, else the first page entry's. A
        // role's server is the app's own too (the one the user chose).
        let named = navigation.pages.filter { $0.scope.role == nil }
        let own = policy.appBoundValues(suffixes).map { Set($0.compactMap(\.bound)) } ?? Set(named.prefix(1).map(site))
        let sites = Set(named.map(site)).subtracting(own)
        guard !sites.isEmpty else { return }
        context.report("navigation.pages admits the third-party \(sites.count == 1 ? "site" : "sites") \(sites.sorted().joined(separator: ", ")), and new windows replace the view's page: their windows take the user off the app's page",
                       at: navigation.newWindows?.location ?? navigation.location, hint: "set 'new-windows: open-externally', as links outside pages already are")
    }
}
