import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

extension DiffFormat: ExpressibleByArgument {}

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what a policy change does: to every request of traces, or entry by entry.",
        discussion: """
        OLD and NEW are policy files, or git:REV:path for a policy as it was at a git revision \
        (git:main:policies/app.yaml; the path as 'git show REV:path' reads it, with the files \
        it includes and the lists it references from that revision). With traces or HAR \
        captures, both policies replay the same requests (the traces' policy: headers and \
        expect= values are not read) and every request whose verdict, final URL, cookies or \
        hidden selectors change is printed, grouped by what changed and by the rule or entry \
        that decided it before and after, then 'N changed, N unchanged'. Without traces, the \
        policies themselves are compared: rules and entries added, removed and changed, with \
        their locations and the fields that differ. --format markdown is for a pull-request \
        comment or $GITHUB_STEP_SUMMARY. Exit codes: 0 nothing changes, 1 something does \
        (so CI can ask for an approval), 2 input error (including a policy with lint errors).
        """
    )

    @Argument(help: "The policy before the change: a file, or git:REV:path.", completion: .file(extensions: ["yaml", "yml"]))
    var old: String

    @Argument(help: "The policy after the change: a file, or git:REV:path.", completion: .file(extensions: ["yaml", "yml"]))
    var new: String

    @Argument(help: "Traces (.trace; - for standard input), HAR captures (.har, or a browser's export under another name) or folders of them to replay through both.", completion: .file())
    var traces: [String] = []

    @Option(help: "Output format: human, json, markdown, html (one page for reviewers).")
    var format: DiffFormat = .human

    @Option(help: "Requests listed per group, at most (0: all). Default: all, or 20 in markdown.")
    var limit: Int?

    @Option(name: .customLong("public-suffix-list"), help: "A Public Suffix List file to use instead of the bundled snapshot.", completion: .file())
    var publicSuffixList: String?

    @OptionGroup var configuration: ConfigurationOptions

    @OptionGroup var cache: CacheOptions

    @Option(help: "Colour in the policies' error messages: auto, always, never.")
    var color: ColorChoice = .auto

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit is a count, 0 or more") }
    }

    func run() throws {
        let lintConfiguration = try configuration.load()
        let oldSource = try PolicySource(old), newSource = try PolicySource(new)
        let oldPolicy = try load(oldSource, lintConfiguration), newPolicy = try load(newSource, lintConfiguration)
        if traces.isEmpty {
            let comparison = PolicyComparison(old: oldPolicy, new: newPolicy)
            print(comparison.rendered(format, old: old, new: new), terminator: "")
            if !comparison.differences.isEmpty { throw ExitCode(ExitStatus.findings) }
            return
        }
        let expansion = try TracePaths.expand(traces)
        let paths = expansion.traces
        if let note = expansion.note { StandardError.write(note) }
        if paths.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read once") }
        let session = SimulationSession(publicSuffixListPath: publicSuffixList, configuration: lintConfiguration)
        let suffixes = try session.loadPublicSuffixList()
        var diff = TrafficDiff(old: oldPolicy, new: newPolicy)
        let problems = try session.compare(paths: paths, old: Simulator(policy: oldPolicy, publicSuffixList: suffixes, engineCache: cache.cache),
                                           new: Simulator(policy: newPolicy, publicSuffixList: suffixes, engineCache: cache.cache)) { before, after, trace in
            diff.add(old: before, new: after, trace: trace)
        }
        if !problems.diagnostics.isEmpty {
            DiagnosticOptions(color: color).showOnStandardError(problems)
            throw ExitCode(ExitStatus.inputError)
        }
        print(diff.rendered(format, old: old, new: new, limit: limit ?? (format == .markdown ? 20 : 0)), terminator: "")
        if diff.changed > 0 { throw ExitCode(ExitStatus.findings) }
    }

    /// The policy, or its errors shown and exit 2: a policy that does not lint cleanly of
    /// errors is not one an app would ship, so there is nothing to compare it with.
    private func load(_ source: PolicySource, _ lintConfiguration: LintConfiguration) throws -> Policy {
        let (report, policy) = try source.load(configuration: lintConfiguration)
        let errors = LintReport(diagnostics: report.diagnostics.filter { $0.severity == .error }, sources: report.sources, lintedFiles: report.lintedFiles)
        guard errors.diagnostics.isEmpty, let policy else {
            DiagnosticOptions(color: color).showOnStandardError(errors)
            throw InputError("\(source.label) has errors: fix them (webpolicy lint) before comparing")
        }
        return policy
    }
}
