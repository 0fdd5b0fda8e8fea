import WebPolicyRuntime

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
        // Ignore rules may cancel either side: only pairs after the last one are sure.
        let rules = policy.contentRules
        let start = rules.lastIndex { [.ignorePreviousRules, .ignoreFollowingRules].contains($0.action.value) }.map { $0 + 1 } ?? 0
        let upgrades = (start..<rules.count).filter { rules[$0].action.value == .makeHTTPS }
        guard !upgrades.isEmpty else { return }
        let shapes = context.facts.triggerShapes
        var blocks = TriggerShapeIndex()
        var blockRules: [ContentRule] = []
        for index in start..<rules.count where rules[index].action.value == .block {
            blocks.add(shapes[index])
            blockRules.append(rules[index])
        }
        for upgrade in upgrades {
            guard let position = blocks.firstCovering(shapes[upgrade]) else { continue }
            let block = blockRules[position]
            context.report("a block rule (\(context.facts.place(of: block))) matches every load this make-https rule matches, and block wins",
                           at: rules[upgrade].location, hint: "remove one of the two rules",
                           notes: [Diagnostic.Note("the block rule", at: block.location)])
        }
    }
}
