import WebPolicyRuntime

/// WebKit `WebKitNamespace::messageHandlers` and `WebPageProxy::
/// setIsNavigatingToAppBoundDomainAndCheckIfPermitted`.
struct BridgeAppBoundDeniedRule: LintRule {
    static let description = RuleDescription(
        id: "bridge-app-bound-denied",
        name: "Bridges Hidden by App-Bound Domains",
        category: .bridges,
        defaultSeverity: .error,
        summary: "With `app-bound-domains` and `limit-navigations` off, WebKit hides every message handler; with it on, frames outside the app-bound domains see none.",
        rationale: """
        Once an app declares `WKAppBoundDomains`, WebKit withholds `window.webkit.\
        messageHandlers` from any frame whose page is not app-bound: `WebKitNamespace::\
        messageHandlers` returns null ("Ignoring messageHandlers() request for non app-bound \
        domain") when `shouldEnableInAppBrowserPrivacyProtections` holds. Without \
        `limitsNavigationsToAppBoundDomains`, `WebPageProxy::\
        setIsNavigatingToAppBoundDomainAndCheckIfPermitted` marks every navigation not \
        app-bound, so no page reaches a bridge at all (webkit.org/blog/10882: "message handler \
        use is denied"). Set `limit-navigations: true`, and keep bridge origins inside the \
        app-bound domains: an origin outside them is a frame WebKit hides the handlers from.
        """,
        failing: [
            Example("""
            app-bound-domains:
              domains: [example.com]
            bridges:
              - name: ↓nativeBridge
                origins: ["*.shop.example.com"]
            """),
            Example("""
            app-bound-domains:
              domains: [example.com]
              limit-navigations: true
            bridges:
              - name: nativeBridge
                origins: ["*.shop.example.com", ↓"pay.example-psp.com"]
            """),
        ],
        passing: [
            Example("""
            app-bound-domains:
              domains: [example.com]
              limit-navigations: true
            bridges:
              - name: nativeBridge
                origins: ["*.shop.example.com"]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let section = policy.appBoundDomains, !policy.bridges.isEmpty else { return }
        guard section.limitNavigations?.value == true else {
            for bridge in policy.bridges {
                context.report("app-bound-domains is declared without limit-navigations: WebKit hides window.webkit.messageHandlers from every page, and bridge '\(bridge.name.value)' never receives a message",
                               at: bridge.name.location, hint: "set 'limit-navigations: true' under app-bound-domains",
                               notes: [Diagnostic.Note("app-bound-domains is declared here", at: section.location)])
            }
            return
        }
        let suffixes = context.facts.publicSuffixes
        guard let bound = policy.appBoundValues(suffixes) else { return }
        let domains = Set(bound.compactMap(\.bound))
        for bridge in policy.bridges {
            for origin in bridge.originScopes {
                guard let scope = origin.scope else { continue }
                if let role = scope.role {
                    // No domain to add: WKAppBoundDomains is fixed before the app binds the role.
                    context.report("${\(role)} is a server the app binds at run time, never in an app-bound domain: WebKit hides the message handlers from its frames, so bridge '\(bridge.name.value)' never hears from it",
                                   at: origin.pattern.location, hint: "leave app-bound-domains out of a policy whose server the user chooses")
                    continue
                }
                let domain = suffixes.registrableDomain(of: scope.sampleHost)
                guard !domains.contains(domain.isEmpty ? scope.sampleHost : domain) else { continue }
                context.report("\(origin.pattern.value) is outside the app-bound domains: WebKit hides the message handlers from its frames, so bridge '\(bridge.name.value)' never hears from it",
                               at: origin.pattern.location, hint: "add its domain to app-bound-domains, or remove the origin")
            }
        }
    }
}
