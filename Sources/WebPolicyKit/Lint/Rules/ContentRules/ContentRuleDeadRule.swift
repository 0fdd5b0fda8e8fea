import WebPolicyRuntime

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
        let shapes = context.facts.triggerShapes
        // The last `ignore-previous-rules` that covers a rule, scanning back from the end: the
        // first covering one added to the index.
        var cancellers = TriggerShapeIndex()
        var cancellerRules: [ContentRule] = []
        var cancelledBy = [ContentRule?](repeating: nil, count: rules.count)
        for index in rules.indices.reversed() {
            if !cancellers.isEmpty { cancelledBy[index] = cancellers.firstCovering(shapes[index]).map { cancellerRules[$0] } }
            if rules[index].action.value == .ignorePreviousRules {
                cancellers.add(shapes[index])
                cancellerRules.append(rules[index])
            }
        }
        // Each rule's key hashed on every core (a block list's 100,000 triggers, selectors
        // and all); the table then compares hashes, and keys only when the hashes agree.
        let key: @Sendable (Int) -> Key? = { index in
            let rule = rules[index]
            // Redirects and header changes carry payloads too rich to compare here.
            guard ![.redirect, .modifyHeaders].contains(rule.action.value) else { return nil }
            return Key(shape: shapes[index], action: rule.action.value, selector: rule.selector?.value ?? "", notification: rule.notification?.value ?? "")
        }
        let hashes: [Int?] = Array(rules.indices).parallelMap { index in
            // A rule brings its hash from the last lint (`ContentRuleDerived`).
            if let hash = rules[index].derived.deadRuleHash { return hash }
            let hash = key(index)?.hashValue
            rules[index].derived.deadRuleHash = .some(hash)
            return hash
        }
        var firstWithHash: [Int: Int] = [:]
        firstWithHash.reserveCapacity(rules.count)
        // Keys whose hash an unequal key had first: exact however rare.
        var firstWithKey: [Key: Int] = [:]
        for (index, rule) in rules.enumerated() {
            if let canceller = cancelledBy[index] {
                context.report("this rule never acts: the ignore-previous-rules at \(context.facts.place(of: canceller)) matches every load it matches and cancels it",
                               at: rule.location, hint: "remove it, or narrow the ignore-previous-rules",
                               notes: [Diagnostic.Note("the ignore-previous-rules", at: canceller.location)])
                continue
            }
            guard let hash = hashes[index] else { continue }
            guard let first = firstWithHash[hash] else {
                firstWithHash[hash] = index
                continue
            }
            let earlier: Int
            if key(first) == key(index) {
                earlier = first
            } else if let known = firstWithKey[key(index)!] {
                earlier = known
            } else {
                firstWithKey[key(index)!] = index
                continue
            }
            context.report("this rule repeats the one at \(context.facts.place(of: rules[earlier])): same trigger, same action",
                           at: rule.location, hint: "remove the repeat",
                           notes: [Diagnostic.Note("the first one", at: rules[earlier].location)])
        }
    }
}

/// What makes two rules the same: their trigger, action, selector and notification.
private struct Key: Hashable, Sendable {
    let shape: TriggerShape
    let action: ContentActionType
    let selector: String
    let notification: String
}
