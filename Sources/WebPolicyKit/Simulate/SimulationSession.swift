import Foundation

/// Loads what `webpolicy simulate` needs — traces, policies (linted), bare lists, the Public
/// Suffix List — and runs them, collecting every input problem with its position.
public struct SimulationSession {
    public var policyOverride: String?
    public var contentRulesPath: String?
    public var publicSuffixListPath: String?
    public var configuration: LintConfiguration
    /// Keep every result (for JSON, JUnit, `--verbose`, `--record`), or only failures and
    /// counts, so a trace of millions of requests needs little memory.
    public var keepsAllResults = true

    public init(policyOverride: String? = nil, contentRulesPath: String? = nil, publicSuffixListPath: String? = nil, configuration: LintConfiguration = LintConfiguration()) {
        self.policyOverride = policyOverride
        self.contentRulesPath = contentRulesPath
        self.publicSuffixListPath = publicSuffixListPath
        self.configuration = configuration
    }

    public struct Outcome {
        public var report: SimulationReport
        /// Trace, HAR and list problems: input errors (exit 2).
        public var inputProblems: LintReport
        /// Lint findings of the policies simulated: errors stop the simulation (exit 1).
        public var policyFindings: LintReport
    }

    public func run(paths: [String]) throws(InputError) -> Outcome {
        let suffixes: PublicSuffixList
        do throws(PublicSuffixList.LoadError) {
            if let publicSuffixListPath {
                suffixes = try PublicSuffixList(contentsOf: publicSuffixListPath)
            } else {
                suffixes = try PublicSuffixList.bundled()
            }
        } catch {
            throw InputError(error.description)
        }
        var problems: [Diagnostic] = []
        var sources: [String: SourceFile] = [:]
        var findings: [Diagnostic] = []
        var findingSources: [String: SourceFile] = [:]
        var simulators: [String: Simulator] = [:]
        var linted: [String] = []
        var traces: [SimulationReport.TraceResults] = []

        var bare: Simulator?
        if let contentRulesPath {
            bare = bareSimulator(contentRulesPath, suffixes: suffixes, problems: &problems, sources: &sources)
        }
        for path in paths {
            guard let trace = readTrace(path, problems: &problems, sources: &sources) else { continue }
            if let bare {
                traces.append(simulate(trace, with: bare, subject: contentRulesPath!))
                continue
            }
            guard let policyPath = policyOverride ?? trace.policyPath else {
                problems.append(Diagnostic(ruleID: "trace", severity: .error, message: "\(path) names no policy",
                                           location: trace.file.location(at: trace.file.startPosition),
                                           hint: "start the trace with 'policy: FILE', or pass --policy or --content-rules"))
                continue
            }
            if !linted.contains(policyPath) {
                // Each policy is linted once, whether it loads or not.
                linted.append(policyPath)
                let linter = Linter(configuration: configuration)
                let (lint, policy) = try linter.lintLoading(path: policyPath)
                findings += lint.diagnostics
                findingSources.merge(lint.sources) { first, _ in first }
                guard lint.count(.error) == 0, let policy else { continue }
                simulators[policyPath] = Simulator(policy: policy, publicSuffixList: suffixes)
            }
            guard let simulator = simulators[policyPath] else { continue }
            traces.append(simulate(trace, with: simulator, subject: policyPath))
        }
        return Outcome(report: SimulationReport(traces: traces),
                       inputProblems: LintReport(diagnostics: problems, sources: sources, lintedFiles: paths),
                       policyFindings: LintReport(diagnostics: findings, sources: findingSources, lintedFiles: linted.sorted()))
    }

    private func simulate(_ trace: Trace, with simulator: Simulator, subject: String) -> SimulationReport.TraceResults {
        var results = SimulationReport.TraceResults(trace: trace, subject: subject)
        simulator.run(trace) { results.add($0, keepingAll: keepsAllResults) }
        return results
    }

    /// The file, or nil with its problem recorded.
    private func read(_ path: String, expecting expected: SourceReader.Expected, problems: inout [Diagnostic], sources: inout [String: SourceFile]) -> SourceFile? {
        switch SourceReader.read(path: path, displayPath: path, expecting: expected) {
        case .problem(let diagnostic, let source):
            problems.append(diagnostic)
            if let source { sources[path] = source }
            return nil
        case .file(let file):
            sources[path] = file
            return file
        }
    }

    private func readTrace(_ path: String, problems: inout [Diagnostic], sources: inout [String: SourceFile]) -> Trace? {
        let expected: SourceReader.Expected = path.lowercased().hasSuffix(".har") ? .har : .trace
        guard let file = read(path, expecting: expected, problems: &problems, sources: &sources) else { return nil }
        let (trace, found) = expected == .har ? HARReader.read(file) : TraceParser.parse(file)
        problems += found.map { Diagnostic(ruleID: expected == .har ? "har" : "trace", severity: .error, message: $0.message, location: file.location($0.range), hint: $0.hint) }
        return found.isEmpty ? trace : nil
    }

    private func bareSimulator(_ path: String, suffixes: PublicSuffixList, problems: inout [Diagnostic], sources: inout [String: SourceFile]) -> Simulator? {
        guard let file = read(path, expecting: .contentBlockerList, problems: &problems, sources: &sources) else { return nil }
        let imported = ContentBlockerImporter.parseList(file)
        problems += imported.diagnostics.filter { $0.severity == .error }
        guard let rules = imported.rules else { return nil }
        return Simulator(contentRules: rules.map { rule in
            (rule.node.jsonValue, RuleOrigin(index: rule.index, id: nil, location: file.location(rule.node.range)))
        }, publicSuffixList: suffixes)
    }
}
