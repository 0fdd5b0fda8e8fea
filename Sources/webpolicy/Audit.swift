import ArgumentParser
import Foundation
import WebPolicyAudit
import WebPolicyKit
import WebPolicyRuntime
#if SwiftAudit
import WebPolicyAuditSwift
#endif

enum BuildConfigurationChoice: String, CaseIterable, ExpressibleByArgument {
    case release, debug
}

struct Audit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check an app's code, Info.plists and storyboards against its policy.",
        discussion: """
        Reads the Swift and Objective-C sources, Info.plist and .entitlements files, storyboards \
        and xibs under the paths (default: the working folder) — test targets and dependency \
        folders (Pods, Carthage, .build, node_modules) left out — and checks what the code does \
        with its web views against the policy: bridges, scheme handlers, settings, file access, \
        ATS keys, App-Bound Domains, queried schemes, views built outside the runtime; and the \
        hazards no policy makes safe. #if is evaluated for a release build for an iOS device. \
        Without --policy the release hazards are checked (the first run); --inventory prints \
        what the app does with its web views, as JSON. A finding is suppressed with a full-line comment: \
        '// webpolicy:disable-next-line RULE-ID -- reason'. Exit codes: 0 clean, 1 errors (or \
        warnings with --strict), 2 usage or input error.
        """
    )

    @Argument(help: "The app's folders or files (default: the working folder).", completion: .directory)
    var paths: [String] = []

    @Option(help: "The policy the app's code is checked against.", completion: .file(extensions: ["yaml", "yml"]))
    var policy: String?

    @Option(help: "Output format: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ReportFormat = .human

    @Flag(help: "Print the inventory of what the app does with its web views (JSON) instead of the findings.")
    var inventory = false

    @Option(help: "The build whose #if branches count: release (default) or debug.")
    var configuration: BuildConfigurationChoice = .release

    @Flag(help: "Read test targets too (skipped by default).")
    var includeTests = false

    @OptionGroup var outputs: ReportOutputs

    @OptionGroup var diagnostics: DiagnosticOptions

    @OptionGroup var config: ConfigurationOptions

    @Option(help: "Report only findings this baseline file does not record.", completion: .file(extensions: ["json"]))
    var baseline: String?

    @Option(help: "Record every current finding in this baseline file (and exit 0).", completion: .file(extensions: ["json"]))
    var writeBaseline: String?

    /// What the build plugin's command declares as its output: written only when the audit
    /// found no error, so a build with errors fails and a clean one does not run it again.
    @Option(help: .hidden)
    var swiftStamp: String?

    static var swiftReader: Auditor.SwiftReader? {
        #if SwiftAudit
        return { bytes, path in SwiftFactReader.read(bytes, path: path) }
        #else
        return nil
        #endif
    }

    func run() throws {
        let settings = try config.load()
        let options = Auditor.Options(includeTests: includeTests, debugBuild: configuration == .debug, skipSwiftWithoutReader: swiftStamp != nil)
        var auditor = Auditor(configuration: settings, options: options, swiftReader: Self.swiftReader)
        let progress = TerminalProgress.observer()
        auditor.progress = progress
        let reading: Auditor.Reading
        do {
            defer { progress?.end() }
            reading = try auditor.read(paths: paths.isEmpty ? ["."] : paths)
        }
        var loaded: (report: LintReport, policy: Policy?)?
        if let policy {
            guard FileManager.default.fileExists(atPath: policy) else { throw InputError("no such policy: \(policy)") }
            // Lint first: an audit against a policy that lint rejects would compare the code
            // with something the team never meant. Lint's findings, in the format asked for
            // (so CI's annotations and SARIF show them), then exit 2.
            let linted = try Linter(configuration: settings).lintLoading(path: policy)
            let errors = linted.report.count(.error)
            if errors > 0 || linted.policy == nil {
                var options = diagnostics.reporterOptions(for: STDOUT_FILENO)
                options.colors = format == .human && diagnostics.color.enabled(for: STDOUT_FILENO)
                let lintReport = LintReport(diagnostics: linted.report.diagnostics.filter { $0.severity == .error }, sources: linted.report.sources, lintedFiles: linted.report.lintedFiles)
                try outputs.emit(lintReport, format: format, options: options)
                StandardError.write("webpolicy: error: \(policy) has \(errors) lint error\(errors == 1 ? "" : "s"): the app was not audited against it (`webpolicy lint \(policy)` shows the same)\n")
                throw ExitCode(ExitStatus.inputError)
            }
            loaded = linted
        }
        if inventory {
            print(InventoryRenderer.json(reading.inventory, tree: reading.tree), terminator: "")
            return
        }
        let policySources = loaded.map { report in report.report.sources.keys.sorted().compactMap { report.report.sources[$0] } } ?? []
        var report = auditor.audit(reading, policy: loaded?.policy, policySources: policySources)
        report = diagnostics.applied(to: report)
        if let writeBaseline {
            try ArtefactWriter.writeFile(Baseline(report).serialized(), to: writeBaseline)
            print("recorded \(report.diagnostics.count) finding\(report.diagnostics.count == 1 ? "" : "s") in \(writeBaseline)")
            return
        }
        if let baseline { report = try Baseline.load(path: baseline).filtering(report) }
        var reporterOptions = diagnostics.reporterOptions(for: STDOUT_FILENO)
        reporterOptions.colors = format == .human && diagnostics.color.enabled(for: STDOUT_FILENO)
        reporterOptions.rules = BuiltInRules.descriptions + AuditRules.descriptions
        reporterOptions.title = "webpolicy audit"
        reporterOptions.junitCases = .perRuleAndFile
        reporterOptions.htmlSections = InventoryHTML.sections(reading.inventory)
        try outputs.emit(report, format: format, options: reporterOptions)
        if format == .human && swiftStamp == nil {
            StandardError.write(AuditSummary.text(reading, policy: policy))
        } else if reading.tree.skippedSwift > 0 {
            StandardError.write("webpolicy: note: \(reading.tree.skippedSwift) Swift file\(reading.tree.skippedSwift == 1 ? " was" : "s were") not audited: this webpolicy was built without the SwiftAudit trait\n")
        }
        if report.count(.error) > 0 { throw ExitCode(ExitStatus.findings) }
        if let swiftStamp {
            try ArtefactWriter.writeFile("// `webpolicy audit` of this target's code against its policy found no error.\n", to: swiftStamp)
        }
    }
}
