import WebPolicyRuntime

struct TriggerMultipleConditionsRule: LintRule {
    static let description = RuleDescription(
        id: "trigger-multiple-conditions",
        name: "Trigger Multiple Conditions",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "A trigger takes one condition: one of `if-domain`, `unless-domain`, `if-top-url`, `unless-top-url`, `if-frame-url`, `unless-frame-url`.",
        rationale: """
        WebKit's `checkCondition` refuses a second condition in a trigger with \
        `JSONMultipleConditions` ("A trigger cannot have more than one condition"), even when \
        the second is empty, and with it the whole rule list. Split the rule in two, or express \
        both with one condition (a url regex can carry a domain).
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                if-domain: [news.example.com]
                ↓unless-top-url: ['/premium/']
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                if-top-url: ['^https://news\\.example\\.com/']
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for rule in policy.contentRules where rule.trigger.conditions.count > 1 {
            let first = rule.trigger.conditions[0]
            for extra in rule.trigger.conditions.dropFirst() {
                context.report("'\(extra.kind.rawValue)' is a second condition in this trigger; WebKit allows one",
                               at: SourceLocation(path: extra.location.path, range: SourceRange(start: extra.location.start, end: SourcePosition(line: extra.location.start.line, column: extra.location.start.column + extra.kind.rawValue.count))),
                               hint: "split the rule into two rules, one per condition",
                               notes: [Diagnostic.Note("the first condition, '\(first.kind.rawValue)', is here", at: first.location), .webKitRefuses(.jsonMultipleConditions)])
            }
        }
    }
}
