import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

extension ReportFormat: ExpressibleByArgument {}

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check policy files and folders.",
        discussion: """
        Folders are searched for policies: YAML or JSON files with a top-level 'webpolicy:' key, \
        or named *.webpolicy.yaml (hidden files and folders are skipped; --verbose lists the \
        other YAML and JSON files left out); a folder with no policy is an input error. A file \
        named here is read by its content: a JSON array is a bare WebKit content-blocker list, \
        anything else a policy. A list is checked as WebKit's \
        parser reads it (errors at the list's line and column), against WebKit's rule limit, \
        and by the lint rules, each finding placed on the rule it concerns; several lists are \
        each checked on their own, as WebKit compiles them. \
        Settings come from --config, or from the nearest .webpolicy.yml in the working folder \
        or above it. A finding can be suppressed in the policy with \
        '# webpolicy:disable-next-line RULE-ID -- reason'. --write-baseline records today's \
        findings; --baseline then reports only new ones. Exit codes: 0 clean, 1 errors (or \
        warnings with --strict), 2 usage or input error.
        """
    )

    @Argument(help: "Policy files or folders (default: the working folder), and content-blocker lists (JSON arrays).", completion: .file(extensions: ["yaml", "yml", "json"]))
    var paths: [String] = []

    @Option(help: "Output format: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ReportFormat = .human

    @OptionGroup var outputs: ReportOutputs

    @OptionGroup var diagnostics: DiagnosticOptions

    @OptionGroup var configuration: ConfigurationOptions

    @Option(help: "Report only findings this baseline file does not record.", completion: .file(extensions: ["json"]))
    var baseline: String?

    @Option(help: "Record every current finding in this baseline file (and exit 0).", completion: .file(extensions: ["json"]))
    var writeBaseline: String?

    @Flag(help: "Apply the certain fixes to the policy files, in place (comments and layout kept).")
    var fix = false

    @Flag(help: "With --fix, also apply fixes that change what the policy means somewhere (listed as such).")
    var unsafeFixes = false

    @Flag(name: [.short, .long], help: "List, on standard error, the YAML and JSON files in the folders that are not policies and were left out.")
    var verbose = false

    func run() throws {
        let linter = Linter(configuration: try configuration.load())
        let paths = self.paths.isEmpty ? ["."] : self.paths
        var report = diagnostics.applied(to: try linter.lint(paths: paths))
        if verbose {
            for skipped in report.skippedFiles { StandardError.write("webpolicy: skipped \(skipped): not a policy (no top-level 'webpolicy: 1')\n") }
        }
        if fix {
            let (fixed, files) = try FixApplier.applyInPlace(report, includingUnsafe: unsafeFixes)
            StandardError.write("fixed \(fixed) finding\(fixed == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s")\n")
            if fixed > 0 { report = diagnostics.applied(to: try linter.lint(paths: paths)) }
        }
        if let writeBaseline {
            try ArtefactWriter.writeFile(Baseline(report).serialized(), to: writeBaseline)
            print("recorded \(report.diagnostics.count) finding\(report.diagnostics.count == 1 ? "" : "s") in \(writeBaseline)")
            return
        }
        if let baseline { report = try Baseline.load(path: baseline).filtering(report) }
        var options = ReporterOptions(colors: useColors)
        options.fixCommand = diagnostics.fixCommand
        try outputs.emit(report, format: format, options: options)
        if report.count(.error) > 0 { throw ExitCode(ExitStatus.findings) }
    }

    private var useColors: Bool {
        format == .human && diagnostics.color.enabled(for: STDOUT_FILENO)
    }
}
