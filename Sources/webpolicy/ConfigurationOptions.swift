import ArgumentParser
import Foundation
import WebPolicyAudit
import WebPolicyKit
import WebPolicyRuntime

/// `--config` and `--no-config`, shared by every command that lints.
struct ConfigurationOptions: ParsableArguments {
    @Option(help: "A configuration file (default: the nearest .webpolicy.yml).", completion: .file())
    var config: String?

    @Flag(help: "Ignore any .webpolicy.yml.")
    var noConfig = false

    @Flag(help: "Ignore '# webpolicy:disable…' suppression comments in policies.")
    var noInlineConfig = false

    func load() throws(InputError) -> LintConfiguration {
        var configuration = try loadFile()
        configuration.inlineConfig = !noInlineConfig
        configuration.otherRuleIDs = AuditRules.descriptions.map(\.id)
        return configuration
    }

    private func loadFile() throws(InputError) -> LintConfiguration {
        if noConfig { return LintConfiguration() }
        let path = config ?? LintConfiguration.discover(from: FileManager.default.currentDirectoryPath)
        guard let path else { return LintConfiguration() }
        if config != nil, !FileManager.default.fileExists(atPath: path) {
            throw InputError("no such configuration file: \(path)")
        }
        // One .webpolicy.yml for lint and audit: either command's rules may be set in it.
        return try LintConfiguration.load(path: path, knownRules: BuiltInRules.descriptions + AuditRules.descriptions)
    }
}

/// `--strict` and `--color`, shared by every command that reports diagnostics.
struct DiagnosticOptions: ParsableArguments {
    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @Option(help: "Colour in human output: auto (on a terminal, unless NO_COLOR is set), always, never.")
    var color: ColorChoice = .auto

    /// What the findings name as the way to apply a fix: the SwiftPM plugins pass their own.
    @Option(help: .hidden)
    var fixCommand: String? = nil

    init() {}

    /// For a command that reports without these options of its own (every property set: a
    /// wrapper left unset cannot be read outside parsing).
    init(color: ColorChoice) {
        self.color = color
        self.strict = false
        self.fixCommand = nil
    }

    /// The report as `--strict` wants it.
    func applied(to report: LintReport) -> LintReport {
        strict ? report.promotingWarnings() : report
    }

    /// Prints a report for people on standard error, if it says anything.
    func showOnStandardError(_ report: LintReport) {
        guard !report.diagnostics.isEmpty else { return }
        StandardError.write(HumanReporter.render(report, options: reporterOptions(for: STDERR_FILENO)))
    }

    func reporterOptions(for descriptor: Int32) -> ReporterOptions {
        ReporterOptions(colors: color.enabled(for: descriptor), fixCommand: fixCommand)
    }
}

/// Colour for human output: on a terminal unless NO_COLOR is set, or as forced.
enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, always, never

    func enabled(for descriptor: Int32) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = ProcessInfo.processInfo.environment["NO_COLOR"], !noColor.isEmpty { return false }
            return isatty(descriptor) != 0
        }
    }
}

enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// `--cache-dir` and `--no-cache`, shared by every command that builds list engines.
struct CacheOptions: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: "Where engine images of the lists are kept between runs (default: WEBPOLICY_CACHE_DIR, else ~/.cache/webpolicy).", completion: .directory)
    var cacheDirectory: String?

    @Flag(name: .customLong("no-cache"), help: "Build every list's engine anew and keep nothing.")
    var noCache = false

    var cache: EngineCache? { EngineCache.resolve(directory: cacheDirectory, disabled: noCache) }
}
