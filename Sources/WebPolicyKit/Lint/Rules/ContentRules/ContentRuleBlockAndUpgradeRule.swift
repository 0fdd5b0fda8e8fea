/// WebKit: `block` wins over `make-https` (ContentExtensions.cpp `StrictPrefixSeparatedMachines3`).
struct ContentRuleBlockAndUpgradeRule: LintRule {
    static let description = RuleDescription(
        id: "content-rule-block-and-upgrade",
        name: "Block and Upgrade on One Filter",
        category: .contentRules,
        defaultSeverity: .warning,
        summary: "`block` and `make-https` on the same trigger: the load is blocked, the upgrade never happens.",
        rationale: """
        When a load matches both a `block` and a `make-https` rule that survive, WebKit blocks \
        it: the block decides and the upgrade is never applied (WebKit's API test \
        `StrictPrefixSeparatedMachines3`, and `applyResultsToRequest`). Two rules with the same \
        trigger, one blocking and one upgrading, therefore mean "block"; the `make-https` rule \
        is noise, or the `block` is a mistake.
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: ^http://cdn\\.example\\.com/
              - ↓action: make-https
                url-filter: ^http://cdn\\.example\\.com/
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: make-https
                url-filter: ^http://cdn\\.example\\.com/
              - action: block
                url-filter: ^http://cdn\\.example\\.com/ads/
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        var blocks: [(shape: TriggerShape, rule: ContentRule)] = []
        var upgrades: [(shape: TriggerShape, rule: ContentRule)] = []
        for rule in policy.contentRules {
            switch rule.action.value {
            case .block: blocks.append((TriggerShape(rule.trigger), rule))
            case .makeHTTPS: upgrades.append((TriggerShape(rule.trigger), rule))
            case .ignorePreviousRules, .ignoreFollowingRules:
                // Ignore rules may cancel either side: only pairs with nothing between are sure.
                blocks.removeAll()
                upgrades.removeAll()
            default: continue
            }
        }
        for upgrade in upgrades {
            guard let block = blocks.first(where: { $0.shape.covers(upgrade.shape) }) else { continue }
            context.report("a block rule (line \(block.rule.location.range.start.line)) matches every load this make-https rule matches, and block wins",
                           at: upgrade.rule.location, hint: "remove one of the two rules",
                           notes: [Diagnostic.Note("the block rule", at: block.rule.location)])
        }
    }
}
