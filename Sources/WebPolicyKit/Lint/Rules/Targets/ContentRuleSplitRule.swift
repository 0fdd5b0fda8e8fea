import WebPolicyRuntime

struct ContentRuleSplitRule: LintRule {
    static let description = RuleDescription(
        id: "content-rule-split",
        name: "Content Rule Split",
        category: .targets,
        defaultSeverity: .error,
        summary: "Splitting the rules at WebKit's limit must not separate an ignore rule from a rule it acts on.",
        rationale: """
        `ignore-previous-rules` and `ignore-following-rules` only act within their own list \
        (WebKit test `MultipleExtensions`). When a policy exceeds the target's rule limit and \
        compile splits it, an ignore rule in a later list can no longer cancel a rule in an \
        earlier one, and a verdict would silently change. webpolicy proves a split safe — rules \
        whose flags cannot meet, or whose url-filters cannot match one URL (decided on the \
        automata) — and otherwise names the pair here. Move the ignore rule next to the rules \
        it cancels, drop rules, or raise `target.ios` to 15 for 150,000 rules per list.
        """,
        failing: [
            Example("""
            target: { ios: "14.0" }
            content-rules:
              - action: block
                hosts: [\(ContentRuleLimitExamples.hosts(50_000))]
              - ↓action: ignore-previous-rules
                url-filter: '^https://h1\\.example/'
            """, displayedAs: """
            target: { ios: "14.0" }
            content-rules:
              - action: block
                hosts: [h0.example, h1.example, …, h49999.example]
              - ↓action: ignore-previous-rules
                url-filter: '^https://h1\\.example/'
            """),
        ],
        passing: [
            Example("""
            target: { ios: "14.0" }
            content-rules:
              - action: block
                hosts: [\(ContentRuleLimitExamples.hosts(50_000))]
              - action: ignore-previous-rules
                url-filter: '^https://partner\\.example\\.org/'
            """, displayedAs: """
            target: { ios: "14.0" }
            content-rules:
              - action: block
                hosts: [h0.example, h1.example, …, h49999.example]
              - action: ignore-previous-rules
                url-filter: '^https://partner\\.example\\.org/'
            """, alsoReportedBy: ["content-rule-limit"]),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let plan = context.facts.rulePlan else { return }
        for conflict in plan.conflicts {
            let verb = conflict.ignoreRule.action == .ignorePreviousRules ? "cancel" : "shield"
            let reason = conflict.isUnproven
                ? "webpolicy could not prove that they never match the same load"
                : "both can match the same load"
            context.report(
                "splitting at WebKit's limit of \(plan.limit) rules puts this \(conflict.ignoreRule.action.rawValue) rule in another list than \(conflict.affectedRule.name), which it could \(verb) (\(reason)); the split would change verdicts",
                at: conflict.ignoreRule.source.location,
                hint: "move the ignore rule next to the rules it acts on, remove rules, or raise target.ios to 15 (150,000 rules per list)",
                notes: [Diagnostic.Note("the rule it acts on", at: conflict.affectedRule.source.location)])
        }
    }
}
