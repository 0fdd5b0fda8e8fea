import ArgumentParser
import Foundation
import WebPolicyKit

extension ReportFormat: ExpressibleByArgument {}

enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, always, never
}

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check policy files and folders.",
        discussion: """
        Folders are searched for *.yaml and *.yml files (hidden files and folders are skipped). \
        Settings come from --config, or from the nearest .webpolicy.yml in the working folder \
        or above it. Exit codes: 0 clean, 1 errors (or warnings with --strict), 2 usage or input error.
        """
    )

    @Argument(help: "Policy files or folders (default: the working folder).", completion: .file(extensions: ["yaml", "yml"]))
    var paths: [String] = []

    @Option(help: "Output format: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ReportFormat = .human

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @Option(help: "A configuration file (default: the nearest .webpolicy.yml).", completion: .file())
    var config: String?

    @Flag(help: "Ignore any .webpolicy.yml.")
    var noConfig = false

    @Option(help: "Colour in human output: auto (on a terminal, unless NO_COLOR is set), always, never.")
    var color: ColorChoice = .auto

    func run() throws {
        let configuration = try loadConfiguration()
        var report = try Linter(configuration: configuration).lint(paths: paths.isEmpty ? ["."] : paths)
        if strict { report = report.promotingWarnings() }
        let options = ReporterOptions(colors: useColors)
        print(format.reporter.render(report, options: options), terminator: "")
        if report.count(.error) > 0 { throw ExitCode(ExitStatus.findings) }
    }

    private func loadConfiguration() throws(InputError) -> LintConfiguration {
        if noConfig { return LintConfiguration() }
        let path = config ?? LintConfiguration.discover(from: FileManager.default.currentDirectoryPath)
        guard let path else { return LintConfiguration() }
        if config != nil, !FileManager.default.fileExists(atPath: path) {
            throw InputError("no such configuration file: \(path)")
        }
        return try LintConfiguration.load(path: path, knownRules: BuiltInRules.descriptions)
    }

    private var useColors: Bool {
        switch color {
        case .always: return true
        case .never: return false
        case .auto:
            guard format == .human else { return false }
            if let noColor = ProcessInfo.processInfo.environment["NO_COLOR"], !noColor.isEmpty { return false }
            return isatty(STDOUT_FILENO) != 0
        }
    }
}
