import WebPolicyRuntime

struct RedirectQueryRule: LintRule {
    static let description = RuleDescription(
        id: "redirect-query",
        name: "Redirect Query",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "A redirect transform's `query` must be empty (remove the query) or start with `?`.",
        rationale: """
        Unless the transform has a `query-transform` (which then wins), \
        WebKit's `URLTransformAction::parse` refuses a query that is neither empty nor starts with `?` \
        with `JSONRedirectInvalidQuery`.

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
                    query: ↓utm=none
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
                    query: "?utm=none"
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for transform in policy.redirectTransforms where transform.queryTransform == nil {
            guard let query = transform.query, !query.value.isEmpty, !query.value.hasPrefix("?") else { continue }
            context.report("the redirect transform's query '\(query.value)' does not start with '?'", at: query.location,
                           hint: "write '?\(query.value)', or \"\" to remove the query", notes: [.webKitRefuses(.jsonRedirectInvalidQuery)])
        }
    }
}
