/// WebKit `actionsFromContentRuleList`: a matching `ignore-previous-rules` drops every action
/// before it; an identical rule adds nothing.
struct ContentRuleDeadRule: LintRule {
    static let description = RuleDescription(
        id: "content-rule-dead",
        name: "Dead Content Rule",
        category: .contentRules,
        defaultSeverity: .warning,
        summary: "A rule that can never change a verdict: an identical rule comes before it, or a later `ignore-previous-rules` always cancels it.",
        rationale: """
        WebKit evaluates every rule whose trigger matches and then, for the last matching \
        `ignore-previous-rules`, drops every action before it (`actionsFromContentRuleList`, \
        WebKit's `ContentExtensionsBackend`). A rule whose trigger is covered by a later \
        `ignore-previous-rules` — the same url-filter (or one that matches everything), flag \
        lists no narrower, no condition or the same one — is cancelled on every load it \
        matches. A rule identical to an earlier one (same trigger, same action) adds nothing. \
        Both cost a slot of the 150,000 a list holds and mislead readers. webpolicy only \
        reports what follows from the fields: it never guesses from regex meaning.
        """,
        failing: [
            Example("""
            content-rules:
              - ↓action: block
                url-filter: tracker\\.js
              - action: ignore-previous-rules
                url-filter: .*
            """),
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                resource-type: [image]
              - ↓action: block
                url-filter: ads
                resource-type: [image]
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                url-filter: tracker\\.js
              - action: ignore-previous-rules
                url-filter: tracker\\.js
                if-domain: [partner.example]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        let rules = policy.contentRules
        let shapes = rules.map { TriggerShape($0.trigger) }
        // The last `ignore-previous-rules` that covers a rule, scanning back from the end.
        var cancellers: [(shape: TriggerShape, rule: ContentRule)] = []
        var cancelledBy = [ContentRule?](repeating: nil, count: rules.count)
        for index in rules.indices.reversed() {
            cancelledBy[index] = cancellers.first { $0.shape.covers(shapes[index]) }?.rule
            if rules[index].action.value == .ignorePreviousRules { cancellers.append((shapes[index], rules[index])) }
        }
        var seen: [String: ContentRule] = [:]
        for (index, rule) in rules.enumerated() {
            if let canceller = cancelledBy[index] {
                context.report("this rule never acts: the ignore-previous-rules at line \(canceller.location.range.start.line) matches every load it matches and cancels it",
                               at: rule.location, hint: "remove it, or narrow the ignore-previous-rules",
                               notes: [Diagnostic.Note("the ignore-previous-rules", at: canceller.location)])
                continue
            }
            // Redirects and header changes carry payloads too rich to compare here.
            guard ![.redirect, .modifyHeaders].contains(rule.action.value) else { continue }
            let key = "\(shapes[index])|\(rule.action.value.rawValue)|\(rule.selector?.value ?? "")|\(rule.notification?.value ?? "")"
            if let earlier = seen[key] {
                context.report("this rule repeats the one at line \(earlier.location.range.start.line): same trigger, same action",
                               at: rule.location, hint: "remove the repeat",
                               notes: [Diagnostic.Note("the first one", at: earlier.location)])
            } else {
                seen[key] = rule
            }
        }
    }
}
