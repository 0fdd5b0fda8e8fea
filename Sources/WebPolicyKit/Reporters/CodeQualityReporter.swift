import WebPolicyRuntime

/// GitLab's code-quality report (a JSON array of Code Climate issues), which merge requests
/// show as a widget and in the diff
/// (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format). The
/// fingerprint is the baseline's identity of a finding — file, rule, message and the text of
/// its line, not its number — so GitLab follows a finding across edits elsewhere in the file;
/// identical findings are told apart by their order.
public enum CodeQualityReporter: Reporter {
    public static let identifier = "codequality"

    public static func render(_ report: LintReport, options: ReporterOptions) -> String {
        var seen: [Baseline.Entry: Int] = [:]
        let issues = report.diagnostics.map { diagnostic -> JSONValue in
            let entry = Baseline.entry(for: diagnostic, in: report)
            let occurrence = seen[entry, default: 0]
            seen[entry] = occurrence + 1
            let identity = [entry.path, entry.rule, entry.message, entry.source, String(occurrence)].joined(separator: "\u{0}")
            var description = diagnostic.message
            if let hint = diagnostic.hint, hint != diagnostic.fix?.description { description += " (hint: \(hint))" }
            let range = diagnostic.location.range
            return .object([
                ("description", .string(description)),
                ("check_name", .string(diagnostic.ruleID)),
                ("fingerprint", .string(SHA256.hex(identity.utf8))),
                ("severity", .string(severity(diagnostic.severity))),
                ("location", .object([
                    ("path", .string(diagnostic.location.path)),
                    ("lines", .object([("begin", .int(range.start.line)), ("end", .int(range.end.line))])),
                ])),
            ])
        }
        return JSONValue.array(issues).serialized(pretty: true)
    }

    /// Code Climate's scale: info, minor, major, critical, blocker. An error fails the run, as a
    /// critical issue fails GitLab's quality gate.
    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: return "critical"
        case .warning: return "major"
        case .info: return "info"
        }
    }
}
