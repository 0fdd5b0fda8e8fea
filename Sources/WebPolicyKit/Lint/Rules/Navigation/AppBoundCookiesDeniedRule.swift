import WebPolicyRuntime

/// webkit.org/blog/10882: outside app-bound mode, WebKit denies cookie manipulation and
/// JavaScript injection once `WKAppBoundDomains` is in Info.plist.
struct AppBoundCookiesDeniedRule: LintRule {
    static let description = RuleDescription(
        id: "app-bound-cookies-denied",
        name: "Cookies Denied outside App-Bound Mode",
        category: .navigation,
        defaultSeverity: .error,
        summary: "With `app-bound-domains` and without `limit-navigations`, WebKit refuses the app's `cookie-store` and `document-cookie` cookies.",
        rationale: """
        Once `WKAppBoundDomains` is in Info.plist, every WKWebView that does not set \
        `limitsNavigationsToAppBoundDomains` runs in a mode where "JavaScript injection, custom \
        style sheets, cookie manipulation, and message handler use is denied" (WebKit, \
        webkit.org/blog/10882; Apple, "Preparing your app to be the default browser"). The \
        policy's `cookie-store` cookies (`WKHTTPCookieStore.setCookie`) and `document-cookie` \
        cookies (a document-start user script) are exactly those: the web app opens signed \
        out. Set `limit-navigations: true`, or deliver the cookie as a `Cookie` header.
        """,
        failing: [
            Example("""
            cookies:
              - name: ↓session
                value: "${SESSION_TOKEN}"
                domain: example.com
                secure: true
            app-bound-domains:
              domains: [example.com]
            """),
        ],
        passing: [
            Example("""
            cookies:
              - name: session
                value: "${SESSION_TOKEN}"
                domain: example.com
                secure: true
            app-bound-domains:
              domains: [example.com]
              limit-navigations: true
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let section = policy.appBoundDomains, section.limitNavigations?.value != true else { return }
        for cookie in policy.cookies where (cookie.via?.value ?? .cookieStore) != .header {
            let via = (cookie.via?.value ?? .cookieStore).rawValue
            context.report("cookie '\(cookie.name.value)' is set through \(via), which WebKit denies outside app-bound mode: with app-bound-domains and without limit-navigations the web app never gets it",
                           at: cookie.name.location, hint: "set 'limit-navigations: true' under app-bound-domains",
                           notes: [Diagnostic.Note("app-bound-domains is set here", at: section.location)])
        }
    }
}
