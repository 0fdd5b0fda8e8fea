import WebPolicyRuntime

struct RedirectExtensionPathRule: LintRule {
    static let description = RuleDescription(
        id: "redirect-extension-path",
        name: "Redirect Extension Path",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "A redirect's `extension-path` must start with `/`.",
        rationale: """
        WebKit's `RedirectAction::parse` refuses an extension path without a leading slash with \
        `JSONRedirectExtensionPathDoesNotStartWithSlash`.

        \(redirectRationaleSuffix)
        """,
        failing: [
            Example("""
            target: { ios: "17.0" }
            content-rules:
              - action: redirect
                url-filter: 'ads\\.js'
                redirect:
                  extension-path: ↓blank.js
            """),
        ],
        passing: [
            Example("""
            target: { ios: "17.0" }
            content-rules:
              - action: redirect
                url-filter: 'ads\\.js'
                redirect:
                  extension-path: /blank.js
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for path in policy.redirectExtensionPaths where !path.value.hasPrefix("/") {
            context.report("the redirect's extension-path '\(path.value)' does not start with '/'", at: path.location,
                           hint: "write '/\(path.value)'", notes: [.webKitRefuses(.jsonRedirectExtensionPathDoesNotStartWithSlash)])
        }
    }
}
