import WebPolicyRuntime

/// A Markdown summary for people: the counts, then a table of findings, each linking its rule's
/// documentation. What `--format github` appends to GitHub's job summary
/// (`$GITHUB_STEP_SUMMARY`), and `--format markdown` prints anywhere (a merge-request note, a
/// chat message).
public enum MarkdownReporter: Reporter {
    public static let identifier = "markdown"

    public static func render(_ report: LintReport, options: ReporterOptions) -> String {
        var output = "### \(options.title): \(report.diagnostics.isEmpty ? "no problems in \(report.lintedFiles.count == 1 ? "1 file" : "\(report.lintedFiles.count) files")" : report.summary)\n"
        guard !report.diagnostics.isEmpty else { return output }
        output += "\n| Severity | Rule | Where | Finding |\n| --- | --- | --- | --- |\n"
        for diagnostic in report.diagnostics {
            var finding = cell(diagnostic.message)
            if let hint = diagnostic.hint, hint != diagnostic.fix?.description { finding += "<br>hint: " + cell(hint) }
            if let fix = diagnostic.fix { finding += "<br>fix: " + cell(fix.description) + " (" + code(options.command(for: fix)) + ")" }
            let rule = link(diagnostic.ruleID, options: options)
            output += "| \(diagnostic.severity.rawValue) | \(rule) | \(code("\(diagnostic.location.path):\(diagnostic.location.start)")) | \(finding) |\n"
        }
        return output
    }

    /// The rule's id, linking its section of docs/rules.md: its own, or the loader checks' table.
    static func link(_ id: String, options: ReporterOptions) -> String {
        if options.rules.contains(where: { $0.id == id }) {
            return "[" + code(id) + "](\(WebPolicyVersion.documentation(ofRule: id)))"
        }
        if LoaderCheck(rawValue: id) != nil {
            return "[" + code(id) + "](\(WebPolicyVersion.documentation(ofRule: "loader-checks")))"
        }
        return code(id)
    }

    /// Text in a table cell: the characters that would end the cell, the row or start markup
    /// are escaped (GitHub Flavored Markdown's table rules).
    static func cell(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "|", "\\", "*", "_", "`", "<", ">", "[", "]": output += "\\" + String(character)
            case "\n", "\r": output += "<br>"
            default: output.append(character)
            }
        }
        return output
    }

    /// Inline code on one line: the diff's code spans (a fence longer than any backtick run
    /// inside, pipes escaped for tables).
    static func code(_ text: String) -> String {
        Markdown.code(text.replacingOccurrences(of: "\n", with: " "))
    }
}
