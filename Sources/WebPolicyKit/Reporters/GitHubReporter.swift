import Foundation
import WebPolicyRuntime

/// GitHub Actions workflow commands: one `::error file=…,line=…,col=…::message` line per
/// diagnostic, which GitHub shows inline on the pull request
/// (https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions).
public enum GitHubReporter: Reporter {
    public static let identifier = "github"

    public static func render(_ report: LintReport, options: ReporterOptions) -> String {
        report.diagnostics.map { diagnostic in
            let range = diagnostic.location.range
            let command: String
            switch diagnostic.severity {
            case .error: command = "error"
            case .warning: command = "warning"
            case .info: command = "notice"
            }
            let properties = [
                "file=\(escapeProperty(diagnostic.location.path))",
                "line=\(range.start.line)",
                "col=\(range.start.column)",
                "endLine=\(range.end.line)",
                "endColumn=\(range.end.column)",
                "title=\(escapeProperty("webpolicy \(diagnostic.ruleID)"))",
            ].joined(separator: ",")
            var message = diagnostic.message
            if let hint = diagnostic.hint, hint != diagnostic.fix?.description { message += "\nhint: \(hint)" }
            if let fix = diagnostic.fix { message += "\nfix: \(fix.description) (\(options.command(for: fix)))" }
            return "::\(command) \(properties)::\(escapeData(message))\n"
        }.joined()
    }

    /// As `@actions/core` escapes command data.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// As `@actions/core` escapes command properties.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
