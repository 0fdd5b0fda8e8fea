import WebPolicyRuntime

struct RedirectSchemeRule: LintRule {
    static let description = RuleDescription(
        id: "redirect-scheme",
        name: "Redirect Scheme",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "A redirect transform's `scheme` must be a valid scheme: a letter, then letters, digits, `+`, `-` or `.`.",
        rationale: """
        `URLTransformAction::parse` canonicalises the scheme with `URLParser::maybeCanonicalizeScheme` \
        and refuses one that fails (WebKit's test uses `!@#$%`) with `JSONRedirectURLSchemeInvalid`. \
        Case does not matter: WebKit lowercases it.

        \(redirectRationaleSuffix)
        """,
        failing: [
            Example("""
            target: { ios: "17.0" }
            content-rules:
              - action: redirect
                url-filter: old
                redirect:
                  transform:
                    scheme: ↓"https:"
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
                    scheme: HTTPS
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for transform in policy.redirectTransforms {
            guard let scheme = transform.scheme, WebKitURL.canonicalScheme(scheme.value) == nil else { continue }
            context.report("the redirect transform's scheme '\(scheme.value)' is not a valid scheme", at: scheme.location,
                           hint: "write the scheme alone, without ':' or '//'", notes: [.webKitRefuses(.jsonRedirectURLSchemeInvalid)])
        }
    }
}
