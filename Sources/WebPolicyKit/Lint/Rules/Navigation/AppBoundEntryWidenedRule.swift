import WebPolicyRuntime

/// WebKit `WebsiteDataStoreCocoa.mm`: each entry is kept as its `RegistrableDomain`.
struct AppBoundEntryWidenedRule: LintRule {
    static let description = RuleDescription(
        id: "app-bound-entry-widened",
        name: "App-Bound Entry Wider than Written",
        category: .navigation,
        defaultSeverity: .warning,
        summary: "Without `navigation`, WebKit's binding of an app-bound entry's whole registrable domain lets the view show every host of it.",
        rationale: """
        `initializeAppBoundDomains` (`Source/WebKit/UIProcess/WebsiteData/Cocoa/\
        WebsiteDataStoreCocoa.mm`) reads each `WKAppBoundDomains` entry as a URL — https when it \
        has no scheme — and keeps `RegistrableDomain { url }`: the registrable domain of its \
        host, by the Public Suffix List. A subdomain, a scheme, a path or a port in the entry is \
        dropped, and `WebPageProxy`'s check then admits every host of that domain \
        (`schemeOrDomainIsAppBound`). With `navigation`, the app's delegate keeps the view on \
        its pages first and the widening changes nothing; without it, App-Bound Domains are \
        the only limit, and `shop.example.com` lets the view show — with cookies, scripts and \
        message handlers allowed — `uploads.example.com` too. Write the registrable domain, so \
        the policy says what WebKit does, or add `navigation`; an entry ending in `:` binds a \
        scheme and is kept as written.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0071"], cwe: ["CWE-183"]),
        failing: [
            Example("""
            app-bound-domains:
              domains: [↓shop.example.com]
            """),
            Example("""
            app-bound-domains:
              domains: [↓"https://example.com/app"]
            """),
        ],
        passing: [
            Example("""
            app-bound-domains:
              domains: [example.com, "shop-bundle:"]
            """),
            Example("""
            navigation:
              pages:
                - host: shop.example.com
            app-bound-domains:
              domains: [shop.example.com]
              limit-navigations: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        // With navigation, the delegate keeps the view on its pages before WebKit binds anything.
        guard policy.navigation == nil, let values = policy.appBoundValues(context.facts.publicSuffixes) else { return }
        for (entry, bound) in values {
            guard let bound, !bound.hasSuffix(":"), bound != entry.value.lowercased() else { continue }
            context.report("WebKit keeps the registrable domain of '\(entry.value)': without navigation, the view may show every host of \(bound)", at: entry.location,
                           hint: "write '\(bound)'", fix: context.fixes.replace(entry, with: bound).map { Fix("write '\(bound)'", edits: [$0]) })
        }
    }
}
