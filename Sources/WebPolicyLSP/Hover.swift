import WebPolicyAudit
import WebPolicyKit
import WebPolicyRuntime

/// What the editor shows over a finding: the rule's documentation (`webpolicy rules ID`, in
/// short), its standards (MASVS, MASWE, MASTG, CWE) and the finding's hint.
enum Hover {
    /// Lint's rules and the audit's, by id.
    static let rules: [String: RuleDescription] = Dictionary((BuiltInRules.descriptions + AuditRules.descriptions).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

    /// The hover for the findings at `position` (1-based), nil when there is none.
    /// `then`: what else there is to say of the place (a key's description), after them.
    static func hover(at position: SourcePosition, findings: [Diagnostic], in file: SourceFile, encoding: PositionEncoding, then more: String? = nil) -> JSONValue? {
        let here = findings.filter { $0.location.path == file.path && Navigation.contains($0.location.range, position) }
        guard let first = here.first else { return nil }
        let text = (here.map(markdown) + (more.map { [$0] } ?? [])).joined(separator: "\n\n---\n\n")
        return .object([
            ("contents", .object([("kind", .string("markdown")), ("value", .string(text))])),
            ("range", LSPDiagnostic.range(first.location.range, in: file, encoding: encoding)),
        ])
    }

    static func markdown(_ finding: Diagnostic) -> String {
        var parts = ["**\(finding.ruleID)** (\(finding.severity.rawValue)): \(finding.message)"]
        // The notes, as lint prints them (`= note:`), each with its place when it has one.
        for note in finding.notes {
            let place = note.location.map { $0.path == finding.location.path ? " (line \($0.start.line))" : " (\($0.path):\($0.start.line))" } ?? ""
            parts.append("note: \(note.message)\(place)")
        }
        if let hint = finding.hint { parts.append("hint: \(hint)") }
        if let fix = finding.fix { parts.append("fix: \(fix.description) (\(fix.command), or the quick fix here)") }
        if let rule = rules[finding.ruleID] {
            parts.append("\(rule.summary)\n\n\(rule.rationale)")
            let standards = rule.standards
            let tags = standards.masvs + standards.maswe + standards.mastg + standards.cwe
            if !tags.isEmpty { parts.append("Standards: " + tags.joined(separator: ", ")) }
            parts.append("`webpolicy rules \(rule.id)` shows its examples; docs/rules.md#\(rule.id).")
        }
        return parts.joined(separator: "\n\n")
    }
}
