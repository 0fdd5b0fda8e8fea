import WebPolicyRuntime

/// A content rule's `id` names it everywhere webpolicy reports on it.
struct ContentRuleIDDuplicateRule: LintRule {
    static let description = RuleDescription(
        id: "content-rule-id-duplicate",
        name: "Two Content Rules with One ID",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "Each content rule's `id` is unique across the policy and the files it includes.",
        rationale: """
        WebKit's JSON has no ids; webpolicy's are how a rule is named everywhere else: \
        `simulate`'s *why*, `explain`, `--coverage`, suppressions' reviews, and `diff`, which \
        pairs the rules of two versions of a policy by id. Two rules with one id make each of \
        those ambiguous — a failure blamed on the wrong rule, a diff that pairs a rule with its \
        namesake. Rename one (an included file's rules count too: they are merged first).
        """,
        failing: [
            Example("""
            content-rules:
              - id: block-trackers
                action: block
                url-filter: "^https?://tracker\\\\.example\\\\.net/"
              - id: ↓block-trackers
                action: block
                url-filter: "^https?://ads\\\\.example\\\\.net/"
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - id: block-trackers
                action: block
                url-filter: "^https?://tracker\\\\.example\\\\.net/"
              - id: block-ads
                action: block
                url-filter: "^https?://ads\\\\.example\\\\.net/"
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        var first: [String: LocatedString] = [:]
        for rule in policy.contentRules {
            guard let id = rule.id else { continue }
            guard let earlier = first[id.value] else {
                first[id.value] = id
                continue
            }
            context.report("another content rule already has the id '\(id.value)'", at: id.location,
                           hint: "give each content rule its own id",
                           notes: [Diagnostic.Note("the first rule with this id", at: earlier.location)])
        }
    }
}
