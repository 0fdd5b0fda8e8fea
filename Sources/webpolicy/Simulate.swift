import ArgumentParser
import Foundation
import WebPolicyKit

enum SimulateFormat: String, CaseIterable, ExpressibleByArgument {
    case human, json, junit
}

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay URL traces or HAR captures against a policy and check the verdicts.",
        discussion: """
        Each request gets a verdict — allow, block, upgrade or intercept — by the pipeline in \
        docs/semantics.md: content rules with WebKit's semantics, the scheme gate, interception, \
        cookies. Failed expectations are printed with expected, actual and why, then the line \
        'N passed, N failed'. The policy comes from the trace's 'policy:' header or --policy; \
        --content-rules simulates a bare WebKit content-blocker list instead. Exit codes: 0 every \
        expectation holds, 1 one fails (or the policy has lint errors), 2 input error.
        """
    )

    @Argument(help: "Traces (.trace, the format in docs/trace-format.md), HAR captures (.har), or folders of traces.", completion: .file())
    var traces: [String]

    @Option(help: "The policy to simulate (overrides the traces' policy: header).", completion: .file(extensions: ["yaml", "yml"]))
    var policy: String?

    @Option(name: .customLong("content-rules"), help: "Simulate this WebKit content-blocker list alone: only what WebKit itself does.", completion: .file(extensions: ["json"]))
    var contentRules: String?

    @Option(help: "Output format: human, json (one object per request and line), junit.")
    var format: SimulateFormat = .human

    @Flag(name: [.short, .long], help: "Show every request, not only failures.")
    var verbose = false

    @Flag(help: "Write the actual verdicts as expect= values: into each trace (in place), or, for a HAR file, into a trace beside it.")
    var record = false

    @Option(name: .customLong("record-to"), help: "With one input, write the recorded trace here instead.", completion: .file())
    var recordTo: String?

    @Option(name: .customLong("public-suffix-list"), help: "A Public Suffix List file to use instead of the bundled snapshot.", completion: .file())
    var publicSuffixList: String?

    @OptionGroup var configuration: ConfigurationOptions

    @OptionGroup var diagnostics: DiagnosticOptions

    func validate() throws {
        if traces.isEmpty { throw ValidationError("name at least one trace or HAR file") }
        if policy != nil && contentRules != nil { throw ValidationError("--policy and --content-rules exclude each other") }
    }

    func run() throws {
        // A folder stands for the .trace files in it (a pre-commit hook passes `policies`).
        var traces: [String] = []
        for path in self.traces {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw InputError("no such file: \(path)") }
            guard isDirectory.boolValue else {
                traces.append(path)
                continue
            }
            let found = TracePaths.find(in: path)
            if found.isEmpty { throw InputError("\(path) holds no .trace files") }
            traces += found
        }
        if recordTo != nil && traces.count != 1 { throw ValidationError("--record-to takes one input") }
        var session = SimulationSession(policyOverride: policy, contentRulesPath: contentRules, publicSuffixListPath: publicSuffixList,
                                        configuration: try configuration.load())
        session.keepsAllResults = verbose || record || recordTo != nil || format != .human
        let outcome = try session.run(paths: traces)
        var policyFindings = diagnostics.applied(to: outcome.policyFindings)
        // Lint's warnings belong to lint; simulate shows them only when asked.
        if !verbose { policyFindings = LintReport(diagnostics: policyFindings.diagnostics.filter { $0.severity == .error }, sources: policyFindings.sources, lintedFiles: policyFindings.lintedFiles) }
        diagnostics.showOnStandardError(policyFindings)
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
        case .human: print(report.human(verbose: verbose), terminator: "")
        case .json: print(report.jsonLines(), terminator: "")
        case .junit: print(report.junit(), terminator: "")
        }
        if report.failed > 0 { throw ExitCode(ExitStatus.findings) }
    }

    private func recordVerdicts(_ traceResults: SimulationReport.TraceResults) throws {
        let path = traceResults.trace.file.path
        let isHAR = path.lowercased().hasSuffix(".har")
        let destination = recordTo ?? (isHAR ? (path as NSString).deletingPathExtension + ".trace" : path)
        let text: String
        if isHAR {
            let reference = contentRules == nil ? RelativePath.of(traceResults.subject, from: (destination as NSString).deletingLastPathComponent) : nil
            text = HARReader.traceText(traceResults.results, policyReference: reference, source: (path as NSString).lastPathComponent)
        } else {
            text = TraceRecorder.record(traceResults.results, into: traceResults.trace.file)
        }
        try ArtefactWriter.writeFile(text, to: destination)
        print("recorded \(traceResults.results.count) verdicts into \(destination)")
    }
}

/// The `.trace` files below a folder, hidden entries skipped, sorted.
enum TracePaths {
    static func find(in folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let entry = walker.nextObject() as? String {
            if (entry as NSString).lastPathComponent.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            if entry.hasSuffix(".trace") { found.append(folder.hasSuffix("/") ? folder + entry : folder + "/" + entry) }
        }
        return found.sorted()
    }
}
