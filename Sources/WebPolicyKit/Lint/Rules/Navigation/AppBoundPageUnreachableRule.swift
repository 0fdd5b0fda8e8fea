import WebPolicyRuntime

/// WebKit `WebPageProxy::setIsNavigatingToAppBoundDomainAndCheckIfPermitted`.
struct AppBoundPageUnreachableRule: LintRule {
    static let description = RuleDescription(
        id: "app-bound-page-unreachable",
        name: "Page outside the App-Bound Domains",
        category: .navigation,
        defaultSeverity: .error,
        summary: "With `limit-navigations`, a `navigation.pages` entry outside the app-bound domains is dead: WebKit refuses every page of it.",
        rationale: """
        With `limitsNavigationsToAppBoundDomains`, WebKit refuses a main-frame navigation to a \
        host whose registrable domain no app-bound entry names, after the app's delegate let \
        it through (`WebPageProxy::setIsNavigatingToAppBoundDomainAndCheckIfPermitted` returns \
        false for the main frame; the navigation fails with `WKError.navigationAppBoundDomain`). \
        A page entry outside them therefore admits nothing: the policy reads as if the view \
        may show it, and the device shows an error. Add its domain to `app-bound-domains` \
        (ten at most), or drop the entry.
        """,
        failing: [
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
                - host: ↓pay.example-psp.com
            app-bound-domains:
              domains: [example.com]
              limit-navigations: true
            """),
        ],
        passing: [
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
                - host: pay.example-psp.com
              new-windows: open-externally
            app-bound-domains:
              domains: [example.com, example-psp.com]
              limit-navigations: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard policy.appBoundDomains?.limitNavigations?.value == true, let pages = policy.navigation?.pages,
              case let suffixes = context.facts.publicSuffixes, let values = policy.appBoundValues(suffixes) else { return }
        let bound = Set(values.compactMap(\.bound))
        for entry in pages {
            let location = policy.appBoundDomains?.limitNavigations?.location
            if let role = entry.scope.role {
                // No domain to add: WKAppBoundDomains is fixed before the app binds the role.
                context.report("${\(role)} is a server the app binds at run time, never in an app-bound domain: with limit-navigations, WebKit refuses every page of it (WKError.navigationAppBoundDomain)",
                               at: entry.host.location, hint: "leave app-bound-domains out of a policy whose server the user chooses",
                               notes: location.map { [Diagnostic.Note("limit-navigations is set here", at: $0)] } ?? [])
                continue
            }
            let host = entry.scope.sampleHost
            let domain = suffixes.registrableDomain(of: host)
            guard !bound.contains(domain.isEmpty ? host : domain) else { continue }
            context.report("\(entry.host.value) is in no app-bound domain: with limit-navigations, WebKit refuses every page of it (WKError.navigationAppBoundDomain)",
                           at: entry.host.location, hint: "add '\(domain.isEmpty ? host : domain)' to app-bound-domains, or drop the entry",
                           notes: location.map { [Diagnostic.Note("limit-navigations is set here", at: $0)] } ?? [])
        }
    }
}
