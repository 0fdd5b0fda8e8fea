import WebPolicyRuntime

/// WebKit `WebsiteDataStoreCocoa.mm`, `initializeAppBoundDomains`: `maxAppBoundDomainCount = 10`.
struct AppBoundDomainsLimitRule: LintRule {
    static let description = RuleDescription(
        id: "app-bound-domains-limit",
        name: "More than Ten App-Bound Domains",
        category: .navigation,
        defaultSeverity: .error,
        summary: "`WKAppBoundDomains` holds at most ten entries: WebKit ignores the rest.",
        rationale: """
        Apple allows up to ten app-bound domains (webkit.org/blog/10882), and WebKit reads no \
        more: `initializeAppBoundDomains` (`Source/WebKit/UIProcess/WebsiteData/Cocoa/\
        WebsiteDataStoreCocoa.mm`) stops at `maxAppBoundDomainCount`, 10, counting domains and \
        `scheme:` entries together, without a word. With `limit-navigations` every page of an \
        entry past the tenth is refused on the device while simulate's reading of the policy \
        would look complete. Keep ten: WebKit binds whole registrable domains, so \
        `shop.example.com` and `pay.example.com` are one entry, `example.com`.
        """,
        failing: [
            Example("""
            app-bound-domains:
              domains: [a.example, b.example, c.example, d.example, e.example, f.example, g.example, h.example, i.example, j.example, ↓k.example]
            """),
        ],
        passing: [
            Example("""
            app-bound-domains:
              domains: [example.com, example-psp.com, "shop-bundle:"]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let domains = policy.appBoundDomains?.domains?.value, domains.count > AppBoundDomains.maximumCount else { return }
        let first = domains[AppBoundDomains.maximumCount]
        context.report("app-bound-domains lists \(domains.count) entries; WebKit reads the first \(AppBoundDomains.maximumCount) and ignores '\(first.value)' and the rest",
                       at: first.location, hint: "keep ten: WebKit binds whole registrable domains, so hosts of one domain need one entry")
    }
}
