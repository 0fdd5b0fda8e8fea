import WebPolicyRuntime

/// RFC 6265 §5.4: a cookie goes with every request to a host its domain covers — an iframe's too.
struct NavigationFrameCookiesRule: LintRule {
    static let description = RuleDescription(
        id: "navigation-frame-cookies",
        name: "App Cookies Sent into Frames",
        category: .navigation,
        defaultSeverity: .warning,
        summary: "A cookie whose domain covers a host `navigation.frames` admits and `pages` does not reaches documents the app embeds but does not show.",
        rationale: """
        `frames` lists documents the view embeds without showing them as pages — a map, a \
        video, a partner's widget: content the app does not own. A cookie the app injects is \
        sent with every request to a host its domain covers (RFC 6265 §5.4), an iframe's \
        document and its subresources included, so a session cookie for `example.com` goes to \
        `widgets.example.com` when that host is listed as a frame. Narrow the cookie (a \
        subdomain, `host-only`), or admit the frame as a page if it is the app's own.
        """,
        failing: [
            Example("""
            navigation:
              pages:
                - host: shop.example.com
              frames:
                - host: widgets.example.com
            cookies:
              - name: ↓session
                value: "${SESSION_TOKEN}"
                domain: example.com
                secure: true
            """),
        ],
        passing: [
            Example("""
            navigation:
              pages:
                - host: shop.example.com
              frames:
                - host: widgets.example.com
            cookies:
              - name: session
                value: "${SESSION_TOKEN}"
                domain: shop.example.com
                secure: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let navigation = policy.navigation, !navigation.frames.isEmpty else { return }
        let pageScopes = navigation.pages.map(\.scope)
        for cookie in policy.cookies {
            let domain = String(cookie.domain.value.lowercased().drop { $0 == "." })
            let hostOnly = cookie.hostOnly?.value ?? false
            let frame = navigation.frames.first { entry in
                let scope = entry.scope
                // A host of the frame the cookie covers, which no page entry admits.
                guard scope.overlaps(domain: domain, subdomains: !hostOnly) else { return false }
                return !pageScopes.contains { $0.overlaps(domain: scope.sampleHost, subdomains: false) }
            }
            guard let frame else { continue }
            context.report("cookie '\(cookie.name.value)' covers \(frame.host.value), a frame the view embeds but does not show as a page: it goes into that frame",
                           at: cookie.name.location, hint: "narrow its domain (or set host-only), or admit the frame as a page",
                           notes: [Diagnostic.Note("the frame entry", at: frame.host.location)])
        }
    }
}
