import WebPolicyRuntime

struct RedirectURLRule: LintRule {
    static let description = RuleDescription(
        id: "redirect-url",
        name: "Redirect URL",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "A redirect's `url` must be a valid absolute URL.",
        rationale: """
        `RedirectAction::parse` parses the url with WebKit's URL parser and refuses an invalid one \
        with `JSONRedirectURLInvalid` — a relative URL, a host that is not one (`https://127..1/`, \
        WebKit's own test), a port above 65535.

        \(redirectRationaleSuffix)
        """,
        failing: [
            Example("""
            target: { ios: "17.0" }
            content-rules:
              - action: redirect
                url-filter: old
                redirect:
                  url: ↓/new-page
            """),
            Example("""
            target: { ios: "17.0" }
            content-rules:
              - action: redirect
                url-filter: old
                redirect:
                  url: ↓"https://127..1/"
            """),
        ],
        passing: [
            Example("""
            target: { ios: "17.0" }
            content-rules:
              - action: redirect
                url-filter: old
                redirect:
                  url: https://new.example.com/page
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for url in policy.redirectURLs where !WebKitURL.isValid(url.value) {
            context.report("the redirect url '\(url.value)' is not a valid absolute URL", at: url.location,
                           hint: "write a full URL with a scheme and a host, such as https://example.com/page", notes: [.webKitRefuses(.jsonRedirectURLInvalid)])
        }
    }
}
