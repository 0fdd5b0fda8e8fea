/// A rule that reports one kind of host-pattern problem (see `HostPatternAnalysis`), in every
/// place a policy writes a host: http-allowlist, content-rule `hosts`, cookie domains and
/// interception hosts.
protocol HostRule: LintRule {
    static var problemKind: HostProblem.Kind { get }
}

extension HostRule {
    func check(_ policy: Policy, _ context: inout RuleContext) {
        for value in context.facts.hostFields {
            for problem in value.problems where problem.kind == Self.problemKind {
                context.report(problem.message, at: context.location(in: value.text, offset: problem.offset, length: problem.length), hint: problem.hint)
            }
        }
    }
}
