import WebPolicyRuntime

struct RedirectFragmentRule: LintRule {
    static let description = RuleDescription(
        id: "redirect-fragment",
        name: "Redirect Fragment",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "A redirect transform's `fragment` must be empty (remove the fragment) or start with `#`.",
        rationale: """
        WebKit's `URLTransformAction::parse` refuses a fragment that is neither empty nor starts with `#` \
        with `JSONRedirectInvalidFragment`.

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
                    fragment: ↓top
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
                    fragment: "#top"
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for transform in policy.redirectTransforms {
            guard let fragment = transform.fragment, !fragment.value.isEmpty, !fragment.value.hasPrefix("#") else { continue }
            context.report("the redirect transform's fragment '\(fragment.value)' does not start with '#'", at: fragment.location,
                           hint: "write '#\(fragment.value)', or \"\" to remove the fragment", notes: [.webKitRefuses(.jsonRedirectInvalidFragment)])
        }
    }
}
