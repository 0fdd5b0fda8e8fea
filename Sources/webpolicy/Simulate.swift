import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

enum SimulateFormat: String, CaseIterable, ExpressibleByArgument {
    case human, json, junit, summary, html
}

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay URL traces or HAR captures against a policy and check the verdicts.",
        discussion: """
        Each request gets a verdict — allow, block, upgrade or intercept — by the pipeline in \
        docs/semantics.md: content rules with WebKit's semantics, the scheme gate, interception, \
        cookies. Failed expectations are printed with expected, actual and why, then the line \
        'N passed, N failed'. The policy comes from the trace's 'policy:' header or --policy; \
        --content-rules simulates bare WebKit content-blocker lists instead: given several times, \
        each is its own list, in the order the app adds them, evaluated on its own as WebKit \
        does (an ignore-previous-rules reaches only its own list). A trace is read \
        as it is simulated, a block of lines at a time on every core, so its size is not \
        limited; '-' reads one from standard input. --format json streams a line per request \
        as it is decided and ends with a summary object; --format summary prints only that, \
        for shards that 'webpolicy merge-summaries' adds up (docs/scale.md). Exit codes: 0 \
        every expectation holds, 1 one fails (or the policy has lint errors), 2 input error.
        """
    )

    @Argument(help: "Traces (.trace, the format in docs/trace-format.md; - for standard input), HAR captures (.har, or a browser's export under another name), or folders of them.", completion: .file())
    var traces: [String]

    @Option(help: "The policy to simulate (overrides the traces' policy: header).", completion: .file(extensions: ["yaml", "yml"]))
    var policy: String?

    @Option(name: .customLong("content-rules"), help: "Simulate this WebKit content-blocker list alone: only what WebKit itself does. Repeat for several lists, in the order the app adds them.", completion: .file(extensions: ["json"]))
    var contentRules: [String] = []

    @Option(help: "Output format: human, json (one object per request and line, then a summary), junit, summary (the counts as one JSON object), html (one page for people: failures first, every request filterable, coverage as a picture).")
    var format: SimulateFormat = .human

    @Flag(help: "Report which content rules, lists, allowlist and scheme entries, interception rules and cookies of each policy no request exercised, with a percentage.")
    var coverage = false

    @Option(help: "Fail (exit 1) when a policy's coverage is below this percentage; implies --coverage.")
    var coverageMin: Double?

    @Flag(name: [.short, .long], help: "Show every request, not only failures.")
    var verbose = false

    @Flag(help: "Write the actual verdicts as expect= values: into each trace (in place), or, for a HAR file, into a trace beside it.")
    var record = false

    @Option(name: .customLong("record-to"), help: "With one input, write the recorded trace here instead.", completion: .file())
    var recordTo: String?

    @Option(name: .customLong("public-suffix-list"), help: "A Public Suffix List file to use instead of the bundled snapshot.", completion: .file())
    var publicSuffixList: String?

    @Option(name: .customLong("bind"), help: ArgumentHelp("Bind a runtime-hosts role before the first line, as a trace's bind line does (repeat for several roles).", valueName: "ROLE=URL"), transform: RoleBindingArgument.parse)
    var bindings: [BindRequest] = []

    @OptionGroup var configuration: ConfigurationOptions

    @OptionGroup var cache: CacheOptions

    @OptionGroup var diagnostics: DiagnosticOptions

    func validate() throws {
        if traces.isEmpty { throw ValidationError("name at least one trace or HAR file") }
        if (coverage || coverageMin != nil) && !contentRules.isEmpty { throw ValidationError("--coverage measures a policy; --content-rules simulates bare lists") }
        if let coverageMin, !(0...100).contains(coverageMin) { throw ValidationError("--coverage-min is a percentage, 0 to 100") }
        if policy != nil && !contentRules.isEmpty { throw ValidationError("--policy and --content-rules exclude each other") }
    }

    func run() throws {
        let expansion = try TracePaths.expand(self.traces)
        let traces = expansion.traces
        if let note = expansion.note { StandardError.write(note) }
        if recordTo != nil && traces.count != 1 { throw ValidationError("--record-to takes one input") }
        if traces.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read once") }
        if (record || recordTo != nil) && traces.contains("-") { throw ValidationError("--record rewrites trace files; standard input has none") }
        var session = SimulationSession(policyOverride: policy, contentRulesPaths: contentRules, publicSuffixListPath: publicSuffixList,
                                        configuration: try configuration.load())
        session.keepsAllResults = verbose || record || recordTo != nil || format == .junit || format == .html
        session.tracksCoverage = coverage || coverageMin != nil
        session.engineCache = cache.cache
        session.bindings = bindings
        // JSON goes out as results are decided: memory for a block, whatever the trace's size.
        let output = StandardOutput()
        var writer = SimulationJSONWriter()
        let streamsJSON = format == .json && !record && recordTo == nil
        session.progress = TerminalProgress.observer(streamsToStandardOutput: streamsJSON)
        let outcome = streamsJSON
            ? try session.run(paths: traces, json: { part, trace in output.write { writer.write(part, trace: trace, into: &$0) } })
            : try session.run(paths: traces)
        var policyFindings = diagnostics.applied(to: outcome.policyFindings)
        // Lint's warnings belong to lint; simulate shows them only when asked.
        if !verbose { policyFindings = LintReport(diagnostics: policyFindings.diagnostics.filter { $0.severity == .error }, sources: policyFindings.sources, lintedFiles: policyFindings.lintedFiles) }
        diagnostics.showOnStandardError(policyFindings)
        output.flush()
        if !outcome.inputProblems.diagnostics.isEmpty {
            diagnostics.showOnStandardError(outcome.inputProblems)
            throw ExitCode(ExitStatus.inputError)
        }
        if policyFindings.count(.error) > 0 { throw ExitCode(ExitStatus.findings) }

        if record || recordTo != nil {
            for traceResults in outcome.report.traces {
                try recordVerdicts(traceResults)
            }
            return
        }
        let report = outcome.report
        switch format {
        case .human:
            print(report.human(verbose: verbose), terminator: "")
            for (path, measured) in outcome.coverage { print(measured.human(policy: path), terminator: "") }
        case .json:
            for (path, measured) in outcome.coverage { print(measured.json(policy: path).serialized(pretty: false)) }
            print(report.summary.jsonLine, terminator: "")
        case .junit: print(report.junit(coverage: outcome.coverage), terminator: "")
        case .summary: print(report.summary.jsonLine, terminator: "")
        case .html: print(report.html(coverage: outcome.coverage), terminator: "")
        }
        let below = outcome.coverage.filter { $0.coverage.percent + 1e-9 < (coverageMin ?? 0) }
        for (path, measured) in below {
            StandardError.write(String(format: "webpolicy: coverage of %@ is %.1f%%, below --coverage-min %g\n", path, measured.percent, coverageMin ?? 0))
        }
        if report.failed > 0 || !below.isEmpty { throw ExitCode(ExitStatus.findings) }
    }

    private func recordVerdicts(_ traceResults: SimulationReport.TraceResults) throws {
        let path = traceResults.path
        let isHAR = TracePaths.isHAR(path)
        let destination = recordTo ?? (isHAR ? (path as NSString).deletingPathExtension + ".trace" : path)
        let text: String
        if isHAR {
            let reference = contentRules.isEmpty ? RelativePath.of(traceResults.subject, from: (destination as NSString).deletingLastPathComponent) : nil
            text = HARReader.traceText(traceResults.results, policyReference: reference, source: (path as NSString).lastPathComponent)
        } else {
            // The trace was streamed: its text is read again to be rewritten, whole.
            guard let original = try? String(contentsOfFile: path, encoding: .utf8) else { throw InputError("cannot read \(path) again to record into it") }
            text = TraceRecorder.record(traceResults.results, into: SourceFile(path: path, text: original))
        }
        try ArtefactWriter.writeFile(text, to: destination)
        print("recorded \(traceResults.results.count) verdicts into \(destination)")
    }
}

/// Standard output through a buffer: a million JSON lines are not a million writes.
final class StandardOutput {
    private var buffer: [UInt8] = []

    func write(_ text: String) {
        write { $0 += text.utf8 }
    }

    /// Bytes appended by `body` to what is waiting to go out.
    func write(_ body: (inout [UInt8]) -> Void) {
        body(&buffer)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        // The bytes as they are ([UInt8] is DataProtocol): a copy into Data was a copy of every
        // line of a JSON stream.
        try? FileHandle.standardOutput.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}
