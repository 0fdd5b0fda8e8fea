import WebPolicyRuntime

/// Apple's `WKContentWorld` (iOS 14): the page world is shared with every script the page
/// loads.
struct BridgePageWorldThirdPartyRule: LintRule {
    static let description = RuleDescription(
        id: "bridge-page-world-third-party",
        name: "Bridge in the Page World Beside Third-Party Scripts",
        category: .bridges,
        defaultSeverity: .warning,
        summary: "A bridge in the page world while a content rule shows third-party scripts load on its pages (one that blocks some leaves the others).",
        rationale: """
        A handler added in the page world (`WKContentWorld.page`) is visible to every script \
        of the page — the site's own and each third-party script it includes: an analytics \
        tag, a chat widget, an ad. Such a script posts from the page's own origin, so the \
        origin check admits it. When the app's own user script is what calls the bridge, add \
        both in a world of the app's (`world: client` for `.defaultClient`, or a name): the \
        page's scripts cannot see that world (Apple's `WKContentWorld`, iOS 14; Brave splits \
        its scripts into sandboxed and page ones for this reason). The policy says \
        third-party scripts load when a content rule addresses them (`load-type: \
        [third-party]` for scripts): blocking some says others are there.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0068"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-749"]),
        failing: [
            Example("""
            content-rules:
              - id: block-tracking-scripts
                action: block
                url-filter: "tracker"
                resource-type: [script]
                load-type: [third-party]
            bridges:
              - name: nativeBridge
                origins: ["*.shop.example.com"]
                world: ↓page
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - id: block-tracking-scripts
                action: block
                url-filter: "tracker"
                resource-type: [script]
                load-type: [third-party]
            bridges:
              - name: nativeBridge
                origins: ["*.shop.example.com"]
                world: client
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let rule = policy.contentRules.first(where: Self.addressesThirdPartyScripts) else { return }
        let blanketBlocks = policy.contentRules.filter(Self.blocksEveryThirdPartyScript)
        for bridge in policy.bridges where bridge.worldValue == .page {
            // A rule that blocks every third-party script on the bridge's pages leaves none to call it.
            let hosts = bridge.originScopes.map { $0.scope?.sampleHost ?? "" }
            guard !blanketBlocks.contains(where: { block in hosts.allSatisfy { Self.applies(block, onPageOf: $0) } }) else { continue }
            let ruleName = rule.id.map { "'\($0.value)'" } ?? "at \(rule.location.described)"
            // A blocking rule blocks some third-party scripts: the ones it does not match still load.
            let says = rule.action.value == .block ? "blocks only the third-party scripts it matches, so others still load on the page" : "acts on third-party scripts, so they load on the page"
            let suffixes = context.facts.publicSuffixes
            let domains = Set(hosts.filter { !$0.isEmpty }.map { host in
                let domain = suffixes.registrableDomain(of: host)
                return "*" + (domain.isEmpty ? Self.registrable(host) : domain)
            }).sorted()
            let block = "a content rule 'action: block, url-filter: \"^https?://\", resource-type: [script], load-type: [third-party]" + (domains.isEmpty ? "" : ", if-domain: [\(domains.joined(separator: ", "))]") + "'"
            context.report("bridge '\(bridge.name.value)' is in the page world, and content rule \(ruleName) \(says): they can call it as the page",
                           at: bridge.world?.location ?? bridge.name.location,
                           hint: "keep the web app's own scripts calling it: block every third-party script on its pages with \(block), as policies/webapp-plugin.yaml does; if only the app's user script calls it, add both in 'world: client' instead",
                           notes: [Diagnostic.Note("third-party scripts addressed here", at: rule.location)])
        }
    }

    /// `cms.shop.example.com` → `shop.example.com` when no Public Suffix List is at hand: the
    /// host without its first label when it has three or more.
    static func registrable(_ host: String) -> String {
        let labels = host.split(separator: ".")
        return labels.count > 2 ? labels.dropFirst().joined(separator: ".") : host
    }

    static func addressesThirdPartyScripts(_ rule: ContentRule) -> Bool {
        guard let loadTypes = rule.trigger.loadTypes?.value, loadTypes.contains(where: { $0.value == .thirdParty }) else { return false }
        guard let types = rule.trigger.resourceTypes?.value else { return true }
        return types.contains { $0.value == .script }
    }

    /// `block` of every third-party script URL: a url-filter that matches any web URL, for
    /// scripts (or every type), with no condition but an `if-domain`.
    static func blocksEveryThirdPartyScript(_ rule: ContentRule) -> Bool {
        guard rule.action.value == .block, let filter = rule.trigger.urlFilter?.value,
              [".*", "^https?://", "^https?:", "^http", "https?://"].contains(filter), rule.trigger.hosts == nil else { return false }
        if let types = rule.trigger.resourceTypes?.value, !types.contains(where: { $0.value == .script }) { return false }
        if let loadTypes = rule.trigger.loadTypes?.value, !loadTypes.contains(where: { $0.value == .thirdParty }) { return false }
        return rule.trigger.conditions.allSatisfy { $0.kind == .ifDomain }
    }

    /// The rule's conditions hold on a page of `host` (WebKit's `if-domain`: the host, or with
    /// a leading `*`, the host and its subdomains).
    static func applies(_ rule: ContentRule, onPageOf host: String) -> Bool {
        guard let condition = rule.trigger.conditions.first(where: { $0.kind == .ifDomain }) else { return true }
        return condition.values.contains { entry in
            let domain = entry.value.lowercased()
            return domain.hasPrefix("*") ? HostScope.isWithin(host, String(domain.dropFirst())) : host == domain
        }
    }
}
