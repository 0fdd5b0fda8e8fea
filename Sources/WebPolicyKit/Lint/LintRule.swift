import WebPolicyRuntime

/// A lint rule: one file under `Lint/Rules/`, its metadata as data, its check a pure function
/// of the merged policy.
public protocol LintRule: Sendable {
    static var description: RuleDescription { get }
    init()
    func check(_ policy: Policy, _ context: inout RuleContext)
}

/// What a rule gets besides the policy: a way to report, facts computed once per policy and
/// shared by all rules (parsed url-filters, host analyses), and the source files.
public struct RuleContext {
    public let rule: RuleDescription
    public let severity: Severity
    let facts: PolicyFacts
    private(set) var diagnostics: [Diagnostic] = []

    init(rule: RuleDescription, severity: Severity, facts: PolicyFacts) {
        self.rule = rule
        self.severity = severity
        self.facts = facts
    }

    /// `severity` lets a rule whose weight depends on the policy (an error for the App Store, a
    /// warning elsewhere) report below its default; a severity set in `.webpolicy.yml` wins.
    public mutating func report(_ message: String, at location: SourceLocation, hint: String? = nil, notes: [Diagnostic.Note] = [], severity: Severity? = nil, fix: Fix? = nil) {
        let chosen = self.severity == rule.defaultSeverity ? (severity ?? self.severity) : self.severity
        diagnostics.append(Diagnostic(ruleID: rule.id, severity: chosen, message: message, location: location, notes: notes, hint: hint, fix: fix))
    }

    /// Builds fixes against the policy's source text.
    var fixes: FixBuilder { FixBuilder(files: facts.files) }

    /// The location of `length` characters at `offset` inside a string value, mapped through
    /// the value's YAML quoting and escapes to the file.
    public func location(in text: LocatedString, offset: Int, length: Int = 1) -> SourceLocation {
        guard let mapping = facts.scalarMapping(of: text) else { return text.location }
        return SourceLocation(path: text.location.path, range: ScalarSourceMap.range(of: offset, length: length, in: mapping))
    }
}
