import WebPolicyRuntime

/// WebKit `WebPageProxy::decidePolicyForNavigationAction` checks every navigation's scheme and
/// host (`beginAppBoundDomainCheck`); `WKAppBoundDomains` binds a scheme by an entry ending in `:`.
struct AppBoundSchemeUnboundRule: LintRule {
    static let description = RuleDescription(
        id: "app-bound-scheme-unbound",
        name: "App's Own Scheme Not App-Bound",
        category: .navigation,
        defaultSeverity: .error,
        summary: "With `limit-navigations`, a custom scheme the app serves pages from needs a `scheme:` entry in `app-bound-domains`.",
        rationale: """
        WebKit checks every navigation against the app-bound domains by its URL's scheme and \
        host (`WebsiteDataStore::beginAppBoundDomainCheck`, `schemeOrDomainIsAppBound`). A page \
        of the app's own scheme — an offline package at `shop-bundle://site/index.html` — has \
        a host no domain entry names, so with `limitsNavigationsToAppBoundDomains` WebKit \
        refuses it in the main frame, and the package never shows. `WKAppBoundDomains` binds a \
        scheme by an entry that ends in a colon (`initializeAppBoundDomains`, \
        `WebsiteDataStoreCocoa.mm`): list `"shop-bundle:"`.
        """,
        failing: [
            Example("""
            interception:
              - scheme: ↓shop-bundle
                serve: bundle/site
            app-bound-domains:
              domains: [example.com]
              limit-navigations: true
            """),
        ],
        passing: [
            Example("""
            interception:
              - scheme: shop-bundle
                serve: bundle/site
            app-bound-domains:
              domains: [example.com, "shop-bundle:"]
              limit-navigations: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let section = policy.appBoundDomains, section.limitNavigations?.value == true else { return }
        let entries = Set((section.domains?.value ?? []).map { $0.value.lowercased() })
        var seen = Set<String>()
        // Pages are served from a folder (`serve:`); a handler's scheme may serve subresources only.
        for rule in policy.interception where rule.serve != nil {
            let scheme = rule.scheme.value.lowercased()
            guard !WebKitSchemes.web.contains(scheme), seen.insert(scheme).inserted, !entries.contains(scheme + ":") else { continue }
            context.report("the app serves pages from \(scheme): but app-bound-domains does not bind the scheme: with limit-navigations, WebKit refuses its pages",
                           at: rule.scheme.location, hint: "add \"\(scheme):\" to app-bound-domains")
        }
        // Pages the policy says the app serves, whatever serves them (a handler too).
        for page in policy.navigation?.schemePages ?? [] where seen.insert(page.schemeName).inserted && !entries.contains(page.schemeName + ":") {
            context.report("navigation.pages shows the app's own pages on \(page.schemeName): but app-bound-domains does not bind the scheme: with limit-navigations, WebKit refuses them",
                           at: page.scheme.location, hint: "add \"\(page.schemeName):\" to app-bound-domains")
        }
    }
}
