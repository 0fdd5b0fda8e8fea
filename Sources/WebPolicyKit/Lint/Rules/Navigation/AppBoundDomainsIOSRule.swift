import WebPolicyRuntime

/// Apple: `WKAppBoundDomains` and `limitsNavigationsToAppBoundDomains` are iOS 14.0+.
struct AppBoundDomainsIOSRule: LintRule {
    static let description = RuleDescription(
        id: "app-bound-domains-ios",
        name: "App-Bound Domains before iOS 14",
        category: .navigation,
        defaultSeverity: .error,
        summary: "App-Bound Domains exist from iOS 14: a policy that targets older iOS cannot rely on them.",
        rationale: """
        `WKAppBoundDomains` and `WKWebViewConfiguration.limitsNavigationsToAppBoundDomains` are \
        available from iOS 14.0 (Apple's documentation; webkit.org/blog/10882). On an older iOS \
        the key is ignored and the property does not exist: nothing limits the view, while the \
        policy and simulate say it is limited. Raise `target.ios` to 14 or later, or drop the \
        section.
        """,
        failing: [
            Example("""
            target: { ios: "13.0" }
            app-bound-domains:
              domains: [example.com]
              limit-navigations: ↓true
            """),
        ],
        passing: [
            Example("""
            target: { ios: "14.0" }
            app-bound-domains:
              domains: [example.com]
              limit-navigations: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let section = policy.appBoundDomains, policy.targetVersion < OSVersion(14) else { return }
        context.report("App-Bound Domains arrived with iOS 14, and this policy targets iOS \(policy.targetVersion): on older devices nothing limits the view",
                       at: section.limitNavigations?.location ?? section.location, hint: "set target.ios to 14.0 or later")
    }
}
