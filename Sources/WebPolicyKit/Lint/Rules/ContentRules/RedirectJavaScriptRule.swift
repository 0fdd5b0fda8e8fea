import WebPolicyRuntime

struct RedirectJavaScriptRule: LintRule {
    static let description = RuleDescription(
        id: "redirect-javascript",
        name: "Redirect JavaScript",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "A redirect may not lead to a `javascript:` URL, by `url` or by a transform's `scheme`.",
        rationale: """
        Redirecting a load into script would run attacker-chosen code in the page; \
        WebKit's `RedirectAction::parse` and `URLTransformAction::parse` refuse it, case-insensitively \
        (`JaVaScRiPt:`), with `JSONRedirectToJavaScriptURL`.

        \(redirectRationaleSuffix)
        """,
        failing: [
            Example("""
            target: { ios: "17.0" }
            content-rules:
              - action: redirect
                url-filter: old
                redirect:
                  url: ↓"JavaScript:alert(1)"
            """),
            Example("""
            target: { ios: "17.0" }
            content-rules:
              - action: redirect
                url-filter: old
                redirect:
                  transform:
                    scheme: ↓javascript
            """),
        ],
        passing: [
            Example("""
            target: { ios: "17.0" }
            content-rules:
              - action: redirect
                url-filter: old
                redirect:
                  transform:
                    scheme: https
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for url in policy.redirectURLs where WebKitURL.isValid(url.value) && WebKitURL.scheme(of: url.value) == "javascript" {
            context.report("the redirect url '\(url.value)' is a javascript: URL", at: url.location, notes: [.webKitRefuses(.jsonRedirectToJavaScriptURL)])
        }
        for transform in policy.redirectTransforms {
            guard let scheme = transform.scheme, WebKitURL.canonicalScheme(scheme.value) == "javascript" else { continue }
            context.report("the redirect transform's scheme is javascript", at: scheme.location, notes: [.webKitRefuses(.jsonRedirectToJavaScriptURL)])
        }
    }
}
