import WebPolicyRuntime

/// A bridge origin the view never shows is a dead entry — or a page the team forgot to list.
struct BridgeOriginUnreachableRule: LintRule {
    static let description = RuleDescription(
        id: "bridge-origin-unreachable",
        name: "Bridge Origin the View Never Shows",
        category: .bridges,
        defaultSeverity: .warning,
        summary: "A bridge origin outside `navigation.pages` (and, with `frames: all`, `navigation.frames`): no page of it ever posts.",
        rationale: """
        With a `navigation` section, the view shows only what `pages` (and, in iframes, \
        `frames`) admit. A bridge origin outside them never posts a message — the entry is \
        dead, or the site it names is missing from `pages` and the bridge cannot work as the \
        team thinks. Either way the policy no longer says what the app does. Remove the \
        origin, or admit its pages (OWASP MASTG-TEST-0078 asks which pages reach each \
        handler: the policy should answer it truly).
        """,
        failing: [
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
              new-windows: open-externally
            bridges:
              - name: nativeBridge
                origins: ["*.shop.example.com", ↓"partner.example.org"]
            """),
        ],
        passing: [
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
                - host: partner.example.org
              new-windows: open-externally
            bridges:
              - name: nativeBridge
                origins: ["*.shop.example.com", "partner.example.org"]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let navigation = policy.navigation else { return }
        let served = policy.interceptedSchemes
        for bridge in policy.bridges {
            // A scheme no page has is bridge-scheme-unserved's finding; with only such schemes,
            // every origin would be unreachable for that one reason.
            let schemes = bridge.schemeNames.filter { WebKitSchemes.web.contains($0) || served.contains($0) }
            guard !schemes.isEmpty else { continue }
            let shown = navigation.pages + (bridge.framesValue == .all ? navigation.frames : [])
            for origin in bridge.originScopes {
                guard let scope = origin.scope else { continue }
                let reachable = shown.contains { entry in
                    entry.scope.intersects(scope) && entry.schemeNames.contains(where: schemes.contains)
                }
                guard !reachable else { continue }
                let sections = bridge.framesValue == .all ? "navigation.pages and frames" : "navigation.pages"
                context.report("bridge '\(bridge.name.value)' admits \(origin.pattern.value), which \(sections) never show: no page of it posts",
                               at: origin.pattern.location, hint: "remove the origin, or admit its pages under navigation")
            }
        }
    }
}
