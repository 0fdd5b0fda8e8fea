import WebPolicyRuntime

struct ConditionListEmptyRule: LintRule {
    static let description = RuleDescription(
        id: "condition-list-empty",
        name: "Condition List Empty",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "A trigger condition (`if-domain` … `unless-frame-url`) needs at least one entry, and no entry may be empty.",
        rationale: """
        WebKit's `checkCondition` refuses an empty condition array and an empty string in one \
        (`getStringList`) with `JSONInvalidConditionList` ("Invalid list of if-domain, \
        unless-domain, if-top-url, or unless-top-url conditions."), and with it the whole rule \
        list. An empty list is no condition at all: remove the key instead.
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                if-domain: ↓[]
            """),
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                unless-top-url: ['^https://a\\.example/', ↓""]
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                if-domain: [news.example.com]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for rule in policy.contentRules {
            for condition in rule.trigger.conditions {
                if condition.values.isEmpty {
                    context.report("the '\(condition.kind.rawValue)' list is empty; WebKit refuses the whole rule list",
                                   at: condition.listLocation,
                                   hint: "remove '\(condition.kind.rawValue)' to apply the rule everywhere, or list at least one entry",
                                   notes: [.webKitRefuses(.jsonInvalidConditionList)])
                }
                for entry in condition.values where entry.value.isEmpty {
                    context.report("'\(condition.kind.rawValue)' has an empty entry; WebKit refuses the whole rule list", at: entry.location,
                                   hint: "remove the empty entry",
                                   notes: [.webKitRefuses(.jsonInvalidConditionList)])
                }
            }
        }
    }
}
