import WebPolicyRuntime

/// A rule that reports one kind of host-pattern problem (see `HostPatternAnalysis`), in every
/// place a policy writes a host: http-allowlist, content-rule `hosts`, cookie domains and
/// interception hosts.
protocol HostRule: LintRule {
    static var problemKind: HostProblem.Kind { get }
    /// The host rewritten so this problem is gone, when that is certain; nil: no fix.
    static func fixed(_ host: String) -> (description: String, host: String)?
}

extension HostRule {
    static func fixed(_ host: String) -> (description: String, host: String)? { nil }

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for value in context.facts.hostFields {
            for problem in value.problems where problem.kind == Self.problemKind {
                let fix = Self.fixed(value.text.value).flatMap { fixed in
                    context.fixes.replace(value.text, with: fixed.host).map { Fix(fixed.description, edits: [$0]) }
                }
                context.report(problem.message, at: context.location(in: value.text, offset: problem.offset, length: problem.length), hint: problem.hint, fix: fix)
            }
        }
    }
}
