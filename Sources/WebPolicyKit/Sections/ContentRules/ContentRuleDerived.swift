import URLFilter

/// What lint works out of a content rule's content — never of its place — kept with the rule:
/// a rule the decoder's memo hands back unchanged, or moves to another line, brings it along,
/// so an editor's next lint does not work it out again for 100,000 rules.
///
/// Each field is written once, by the one thread that handles the rule in a parallel pass, and
/// read after that pass; one lint at a time reads a policy's rules.
final class ContentRuleDerived: @unchecked Sendable {
    /// The trigger as comparable data (`TriggerShape`).
    var shape: TriggerShape?
    /// The hash of what makes two rules the same for `content-rule-dead`; `.some(nil)` for a
    /// rule the check does not compare.
    var deadRuleHash: Int??
    /// The rule's regexes that WebKit's parser does not take as a plain filter.
    var regexFindings: [RegexFinding]?

    init() {}
}

/// A regex of a rule's that is not a plain filter: which of `Trigger.regexFields`, and
/// WebKit's parse of it. Says nothing of where it is written, so a moved rule keeps it.
struct RegexFinding: Sendable {
    var field: Int
    var result: URLFilterParseResult
}
