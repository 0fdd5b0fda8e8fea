import WebPolicyRuntime

struct CSSSelectorSyntaxRule: LintRule {
    static let description = RuleDescription(
        id: "css-selector-syntax",
        name: "CSS Selector Syntax",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "A `css-display-none` selector must be a selector list WebKit's CSS parser can read.",
        rationale: """
        WebKit parses each `css-display-none` selector when it compiles the list and, "to be \
        backwards-compatible", drops a rule whose selector fails without any error \
        (`loadAction` in ContentExtensionParser.cpp): the element the rule should hide stays \
        visible, and nothing says why. webpolicy cannot run WebKit's CSS parser, so it refuses \
        what can never be a selector list — an empty one, unbalanced brackets, parentheses or \
        quotes, an empty item between commas, a dangling backslash — and points at the \
        character.
        """,
        failing: [
            Example("""
            content-rules:
              - action: css-display-none
                url-filter: '^https://news\\.example\\.com/'
                selector: '.banner, ↓[data-ad="top"'
            """),
            Example("""
            content-rules:
              - action: css-display-none
                url-filter: '^https://news\\.example\\.com/'
                selector: '.banner,↓, #cookie-notice'
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: css-display-none
                url-filter: '^https://news\\.example\\.com/'
                selector: '.banner, [data-ad="top"], #cookie-notice:not(.keep)'
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for rule in policy.contentRules where rule.action.value == .cssDisplayNone {
            guard let selector = rule.selector, let problem = CSSSelectorCheck.problem(in: selector.value) else { continue }
            context.report("the selector '\(selector.value)' cannot be parsed: \(problem.message); WebKit would drop this rule without an error",
                           at: context.location(in: selector, offset: problem.offset),
                           hint: "fix the selector; WebKit skips rules whose selector fails, so nothing would be hidden")
        }
    }
}
