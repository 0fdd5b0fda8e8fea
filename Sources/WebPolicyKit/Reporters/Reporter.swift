import WebPolicyRuntime

/// Turns a lint report into text. Reporters are pure: same report, same options, same bytes.
public protocol Reporter {
    static var identifier: String { get }
    static func render(_ report: LintReport, options: ReporterOptions) -> String
}

public struct ReporterOptions: Sendable {
    /// ANSI colours (the CLI enables them on a terminal, never with `NO_COLOR`).
    public var colors: Bool
    /// Written into SARIF's `tool.driver.version`.
    public var toolVersion: String
    /// The rules to describe in SARIF's `tool.driver.rules`.
    public var rules: [RuleDescription]
    /// The command that applies a fix where the user runs webpolicy through something else (a
    /// SwiftPM plugin's own fix command); nil: `webpolicy lint --fix`.
    public var fixCommand: String?
    /// What ran, for the reports people read (the Markdown summary's heading, JUnit's suites).
    public var title = "webpolicy lint"
    /// How JUnit lays out the findings: a case per finding and a passing case per clean file
    /// (lint: a handful of policy files), or a case per rule and file that has findings (the
    /// audit: an app's thousand files, most of them with nothing to say).
    public var junitCases = JUnitCases.perFinding
    /// More sections for the HTML page, after the findings: the audit's inventory.
    public var htmlSections: [HTMLSection] = []

    public enum JUnitCases: Sendable {
        case perFinding
        case perRuleAndFile
    }

    /// How a fix is applied, as the user runs webpolicy.
    public func command(for fix: Fix) -> String {
        guard let fixCommand else { return fix.command }
        return fix.changesMeaning ? fixCommand + " --unsafe-fixes" : fixCommand
    }

    public init(colors: Bool = false, toolVersion: String = WebPolicyVersion.current, rules: [RuleDescription] = BuiltInRules.descriptions, fixCommand: String? = nil) {
        self.colors = colors
        self.toolVersion = toolVersion
        self.rules = rules
        self.fixCommand = fixCommand
    }
}

/// The `--format` values of `webpolicy lint`.
public enum ReportFormat: String, CaseIterable, Sendable {
    case human, json, sarif, github, junit, markdown, codequality, html

    public var reporter: any Reporter.Type {
        switch self {
        case .human: return HumanReporter.self
        case .json: return JSONReporter.self
        case .sarif: return SARIFReporter.self
        case .github: return GitHubReporter.self
        case .junit: return JUnitReporter.self
        case .markdown: return MarkdownReporter.self
        case .codequality: return CodeQualityReporter.self
        case .html: return HTMLReporter.self
        }
    }
}

extension LintReport {
    /// "2 errors, 1 warning in 3 files" — shared by the human reporter and the CLI.
    public var summary: String {
        let files = lintedFiles.count == 1 ? "1 file" : "\(lintedFiles.count) files"
        let parts = [(count(.error), "error"), (count(.warning), "warning"), (count(.info), "info")]
            .filter { $0.0 > 0 }
            .map { "\($0.0) \($0.1)\($0.0 == 1 || $0.1 == "info" ? "" : "s")" }
        return parts.isEmpty ? "no problems in \(files)" : "\(parts.joined(separator: ", ")) in \(files)"
    }
}
