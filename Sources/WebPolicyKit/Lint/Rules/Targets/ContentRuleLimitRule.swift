import WebPolicyRuntime

struct ContentRuleLimitRule: LintRule {
    static let description = RuleDescription(
        id: "content-rule-limit",
        name: "Content Rule Limit",
        category: .targets,
        defaultSeverity: .warning,
        summary: "More content rules than one WebKit list takes for the target: compile splits them into several lists.",
        rationale: """
        WebKit refuses a list of more than 150,000 rules from iOS 15 on, and of more than 50,000 \
        before (`JSONTooManyRules`, counted after webpolicy's `hosts:` and `request-method` sugar \
        expands). `webpolicy compile` then writes numbered lists that the app must all install. \
        Each list is compiled and evaluated on its own, so splitting is safe only when no \
        `ignore-previous-rules` or `ignore-following-rules` ends up apart from rules it acts on \
        — `content-rule-split` reports those. The diagnostic is placed on the first rule of the \
        second list.
        """,
        failing: [
            Example("""
            target: { ios: "14.0" }
            content-rules:
              - action: block
                hosts: [\(ContentRuleLimitExamples.hosts(50_000))]
              - ↓action: block
                url-filter: '^https://tracker\\.example/'
            """, displayedAs: """
            target: { ios: "14.0" }
            content-rules:
              - action: block
                hosts: [h0.example, h1.example, …, h49999.example]
              - ↓action: block
                url-filter: '^https://tracker\\.example/'
            """),
        ],
        passing: [
            Example("""
            target: { ios: "15.0" }
            content-rules:
              - action: block
                hosts: [\(ContentRuleLimitExamples.hosts(50_000))]
              - action: block
                url-filter: '^https://tracker\\.example/'
            """, displayedAs: """
            target: { ios: "15.0" }
            content-rules:
              - action: block
                hosts: [h0.example, h1.example, …, h49999.example]
              - action: block
                url-filter: '^https://tracker\\.example/'
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let plan = context.facts.rulePlan, plan.lists.count > 1 else { return }
        let total = plan.lists.reduce(0) { $0 + $1.count }
        for (index, list) in plan.lists.enumerated().dropFirst() {
            guard let first = list.first else { continue }
            context.report(
                "rules from here on go to content-blocker list \(index + 1) of \(plan.lists.count): the policy compiles to \(total) rules, and WebKit takes \(plan.limit) per list for iOS \(policy.targetVersion)",
                at: first.source.location,
                hint: Self.hint(target: policy.targetVersion, limit: plan.limit))
        }
    }
}

extension ContentRuleLimitRule {
    /// Raising the target helps only below 15, where WebKit takes 50,000 rules a list.
    static func hint(target: OSVersion, limit: Int) -> String {
        target < OSVersion(15) ? "the app must install every list; raise target.ios to 15 for 150,000 rules per list, or remove rules"
            : "the app must install every list, or remove rules: \(grouped(limit)) rules a list is WebKit's limit on every iOS from 15 on"
    }
}

/// `150000` as `150,000`.
private func grouped(_ number: Int) -> String {
    let digits = Array(String(number))
    return String(digits.enumerated().flatMap { index, digit in (index > 0 && (digits.count - index) % 3 == 0) ? [",", digit] : [digit] })
}

enum ContentRuleLimitExamples {
    static func hosts(_ count: Int) -> String {
        (0..<count).map { "h\($0).example" }.joined(separator: ", ")
    }
}
