import WebPolicyRuntime

/// WebKit's `if-domain` matches the top document; `document.cookie` sets cookies for the
/// page's own domain (RFC 6265 §5.3 step 6; HTML's cookie-averse document check).
struct NavigationDeadConditionRule: LintRule {
    static let description = RuleDescription(
        id: "navigation-dead-condition",
        name: "Condition on a Page the View Never Shows",
        category: .navigation,
        defaultSeverity: .warning,
        summary: "A content rule's `if-domain` or a page cookie for sites outside `navigation.pages` can never apply.",
        rationale: """
        Some parts of a policy act on the page the view shows: WebKit matches `if-domain` \
        against the top document's host (`ContentExtensionsBackend`, "the domain of the main \
        document"), a `document-cookie` cookie is set by a script on pages of its domain \
        (`document.cookie` can only set cookies the page's own domain covers, RFC 6265 §5.3 \
        step 6), and a `header` cookie goes with the first page's request. With \
        `navigation`, the view shows only what `pages` lists — so a condition or a cookie for \
        other sites is dead: it reads as protection or as a login that never happens. Fix the \
        domain, or add the page.
        """,
        failing: [
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
            content-rules:
              - action: block
                url-filter: chat-widget
                if-domain: [↓"*blog.example.org"]
            """),
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
            cookies:
              - name: ↓locale
                value: de
                domain: example.org
                secure: true
                via: document-cookie
            """),
        ],
        passing: [
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
            content-rules:
              - action: block
                url-filter: chat-widget
                if-domain: ["*shop.example.com"]
            cookies:
              - name: locale
                value: de
                domain: example.com
                secure: true
                via: document-cookie
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let pages = policy.navigation?.pages, !pages.isEmpty else { return }
        let scopes = pages.map(\.scope)
        func shown(_ domain: String, subdomains: Bool) -> Bool {
            scopes.contains { $0.overlaps(domain: domain, subdomains: subdomains) }
        }
        for rule in policy.contentRules {
            for condition in rule.trigger.conditions where condition.kind == .ifDomain {
                // A rule is dead only when none of its domains is ever a page.
                let entries = condition.values
                let dead = entries.allSatisfy { entry in
                    let value = entry.value.lowercased()
                    let wide = value.hasPrefix("*")
                    return !shown(wide ? String(value.dropFirst()) : value, subdomains: wide)
                }
                guard dead, let first = entries.first else { continue }
                context.report("if-domain names only sites outside navigation.pages: the view never shows a page the rule applies on",
                               at: first.location, hint: "name a domain of the pages, or add the page to navigation.pages")
            }
        }
        for cookie in policy.cookies {
            let via = cookie.via?.value ?? .cookieStore
            guard via != .cookieStore else { continue }  // the store's cookies go to subresources too
            let domain = String(cookie.domain.value.lowercased().drop { $0 == "." })
            if let role = HostScope.roleName(cookie.domain.value) {
                // A role's cookie goes to its bound server: shown when a page names the role.
                guard !scopes.contains(where: { $0.role == role }) else { continue }
            } else {
                guard !shown(domain, subdomains: !(cookie.hostOnly?.value ?? false)) else { continue }
            }
            let what = via == .header ? "goes with the first page's request" : "is set by a script on pages of its domain"
            context.report("cookie '\(cookie.name.value)' \(what), but the view never shows a page of \(domain)", at: cookie.name.location,
                           hint: "set its domain to one of navigation.pages, or add the page")
        }
    }
}
