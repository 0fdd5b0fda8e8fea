import Foundation
import WebPolicyRuntime

/// Loads what `webpolicy simulate` needs — traces, policies (linted), bare lists, the Public
/// Suffix List — and runs them, collecting every input problem with its position.
public struct SimulationSession {
    public var policyOverride: String?
    /// Bare content-blocker lists, in the order the app adds them: each its own list.
    public var contentRulesPaths: [String]
    /// The first of `contentRulesPaths` (tools that simulate one list).
    public var contentRulesPath: String? { contentRulesPaths.first }
    public var publicSuffixListPath: String?
    public var configuration: LintConfiguration
    /// Keep every result (for JSON, JUnit, `--verbose`, `--record`), or only failures and
    /// counts, so a trace of millions of requests needs little memory.
    public var keepsAllResults = true
    /// Track which rules, entries, lists and cookies of each policy the requests exercise.
    public var tracksCoverage = false
    /// Where engine images of the lists are kept between runs (nil: built every run).
    public var engineCache: EngineCache?
    /// Told how far each trace has come, and of the policies being prepared.
    public var progress: ProgressObserver?
    /// Roles bound before every trace's first line (`--bind ROLE=URL`), each decided by the
    /// policy as a `bind` line is: a binding the policy refuses is an input error.
    public var bindings: [BindRequest] = []

    public init(policyOverride: String? = nil, contentRulesPath: String? = nil, publicSuffixListPath: String? = nil, configuration: LintConfiguration = LintConfiguration()) {
        self.init(policyOverride: policyOverride, contentRulesPaths: contentRulesPath.map { [$0] } ?? [], publicSuffixListPath: publicSuffixListPath, configuration: configuration)
    }

    public init(policyOverride: String? = nil, contentRulesPaths: [String], publicSuffixListPath: String? = nil, configuration: LintConfiguration = LintConfiguration()) {
        self.policyOverride = policyOverride
        self.contentRulesPaths = contentRulesPaths
        self.publicSuffixListPath = publicSuffixListPath
        self.configuration = configuration
    }

    public struct Outcome {
        public var report: SimulationReport
        /// Trace, HAR and list problems: input errors (exit 2).
        public var inputProblems: LintReport
        /// Lint findings of the policies simulated: errors stop the simulation (exit 1).
        public var policyFindings: LintReport
        /// With `tracksCoverage`: each policy simulated, by path, in the order first met.
        public var coverage: [(policy: String, coverage: Coverage)] = []
    }

    /// Binds `bindings` in `simulator`, as the policy at `policyPath` decides them.
    private func bind(_ simulator: inout Simulator, policyPath: String) throws(InputError) {
        for request in bindings {
            let decision = simulator.engine.decide(request)
            guard decision.verdict == .allow, let binding = decision.binding else {
                throw InputError("--bind \(request.role)=\(request.url): \(policyPath) refuses it: \(decision.reason)")
            }
            simulator.bindings[request.role] = binding
        }
    }

    /// Simulates each trace in turn; `each` sees every result as it is decided, in order,
    /// with the path of its trace. Without `each`, all results kept or coverage, the lines
    /// are counted where they are decided and only failures become results (`Tally`).
    public func run(paths: [String], each: ((RequestResult, String) -> Void)? = nil) throws(InputError) -> Outcome {
        try run(paths: paths, watcher: each.map(Watcher.results))
    }

    /// Simulates each trace in turn for `--format json`: `json` is handed its lines in order,
    /// with the path of their trace, as chunks written on the cores that decided them (or as
    /// results, when coverage or kept results need each result anyway).
    public func run(paths: [String], json: @escaping (JSONLinesPart, String) -> Void) throws(InputError) -> Outcome {
        try run(paths: paths, watcher: .json(json))
    }

    /// Who sees a run's lines as they are decided.
    private enum Watcher {
        case results((RequestResult, String) -> Void)
        case json((JSONLinesPart, String) -> Void)

        /// Each result, as its watcher takes it.
        var eachResult: (RequestResult, String) -> Void {
            switch self {
            case .results(let each): return each
            case .json(let json): return { result, trace in json(.result(result), trace) }
            }
        }
    }

    private func run(paths: [String], watcher each: Watcher?) throws(InputError) -> Outcome {
        defer { progress?.end() }
        // Kept results need a result for every line, whoever watches.
        let watcher = each ?? (keepsAllResults ? .results { _, _ in } : nil)
        let suffixes = try loadSuffixes()
        var problems: [Diagnostic] = []
        var sources: [String: SourceFile] = [:]
        var findings: [Diagnostic] = []
        var findingSources: [String: SourceFile] = [:]
        var simulators: [String: Simulator] = [:]
        var coverage: [(policy: String, coverage: Coverage)] = []
        var linted: [String] = []
        var traces: [SimulationReport.TraceResults] = []

        var bare: Simulator?
        if !contentRulesPaths.isEmpty {
            progress?.begin(ProgressStage("preparing \(contentRulesPaths.joined(separator: ", "))", unit: .rules))
            bare = bareSimulator(contentRulesPaths, suffixes: suffixes, problems: &problems, sources: &sources)
        }
        for path in paths {
            guard let input = try open(path, problems: &problems, sources: &sources) else { continue }
            defer { collectProblems(of: input, into: &problems, sources: &sources) }
            if !contentRulesPaths.isEmpty {
                // A list that cannot be read is reported; its traces are not simulated.
                if let bare { traces.append(simulate(input, with: bare, subject: contentRulesPaths.joined(separator: ", "), each: watcher)) }
                continue
            }
            guard let policyPath = policyOverride ?? input.policyPath else {
                if case .stream(let stream) = input, !stream.problems.isEmpty { continue }
                problems.append(Diagnostic(ruleID: "trace", severity: .error, message: "\(input.displayPath) names no policy",
                                           location: SourceLocation(path: input.displayPath, range: SourceRange(at: SourcePosition(line: 1, column: 1))),
                                           hint: input.isHAR ? "a HAR capture names no policy: pass --policy or --content-rules"
                                               : "start the trace with 'policy: FILE', or pass --policy or --content-rules"))
                continue
            }
            // A header naming a file that is not there is the trace's problem, at its line.
            if policyOverride == nil, let range = input.policyRange, !FileManager.default.fileExists(atPath: policyPath) {
                problems.append(Diagnostic(ruleID: "trace", severity: .error, message: "the policy this trace names, \(policyPath), does not exist",
                                           location: SourceLocation(path: input.displayPath, range: range),
                                           hint: "a 'policy:' path is relative to the trace's folder; or pass --policy"))
                continue
            }
            if !linted.contains(policyPath) {
                // Each policy is linted once, whether it loads or not.
                linted.append(policyPath)
                progress?.begin(ProgressStage("preparing \(policyPath)", unit: .rules))
                let linter = Linter(configuration: configuration)
                let (lint, policy) = try linter.lintLoading(path: policyPath)
                findings += lint.diagnostics
                findingSources.merge(lint.sources) { first, _ in first }
                guard lint.count(.error) == 0, let policy else { continue }
                var simulator = Simulator(policy: policy, publicSuffixList: suffixes, engineCache: engineCache)
                try bind(&simulator, policyPath: policyPath)
                simulators[policyPath] = simulator
                if tracksCoverage { coverage.append((policyPath, Coverage(policy: policy))) }
            }
            guard let simulator = simulators[policyPath] else { continue }
            if tracksCoverage, let position = coverage.firstIndex(where: { $0.policy == policyPath }) {
                let watched = watcher?.eachResult
                traces.append(simulate(input, with: simulator, subject: policyPath, each: .results { result, trace in
                    coverage[position].coverage.add(result)
                    watched?(result, trace)
                }))
            } else {
                traces.append(simulate(input, with: simulator, subject: policyPath, each: watcher))
            }
        }
        return Outcome(report: SimulationReport(traces: traces),
                       inputProblems: LintReport(diagnostics: problems, sources: sources, lintedFiles: paths),
                       policyFindings: LintReport(diagnostics: findings, sources: findingSources, lintedFiles: linted.sorted()),
                       coverage: coverage)
    }

    /// Replays each trace or HAR capture through two simulators side by side (`webpolicy
    /// diff`); `each` sees both results of every request with its trace's path. The traces'
    /// `policy:` headers are not read: the two policies are the subjects. Returns the input
    /// problems (exit 2).
    public func compare(paths: [String], old: Simulator, new: Simulator, each: (RequestResult, RequestResult, String) -> Void) throws(InputError) -> LintReport {
        var problems: [Diagnostic] = []
        var sources: [String: SourceFile] = [:]
        for path in paths {
            guard let input = try open(path, problems: &problems, sources: &sources) else { continue }
            let display = input.displayPath
            switch input {
            case .stream(let stream): old.run(stream, against: new) { each($0, $1, display) }
            case .har(let capture): old.run(capture, against: new) { each($0, $1, display) }
            }
            collectProblems(of: input, into: &problems, sources: &sources)
        }
        return LintReport(diagnostics: problems, sources: sources, lintedFiles: paths)
    }

    /// A trace opened to be streamed (its header read), or a HAR capture opened to be streamed.
    private func open(_ path: String, problems: inout [Diagnostic], sources: inout [String: SourceFile]) throws(InputError) -> Input? {
        if TracePaths.isHAR(path) { return .har(try HARStream(path: path)) }
        let stream = try TraceStream(path: path)
        stream.readHeader()
        return .stream(stream)
    }

    /// A streamed trace's or capture's problems, once it has been read.
    private func collectProblems(of input: Input, into problems: inout [Diagnostic], sources: inout [String: SourceFile]) {
        let (found, file, ruleID): ([TraceParser.Problem], SourceFile, String)
        switch input {
        case .stream(let stream): (found, file, ruleID) = (stream.problems, stream.problemSource, "trace")
        case .har(let capture): (found, file, ruleID) = (capture.problems, capture.problemSource, "har")
        }
        guard !found.isEmpty else { return }
        sources[input.displayPath] = file
        problems += found.map { Diagnostic(ruleID: ruleID, severity: .error, message: $0.message, location: file.location($0.range), hint: $0.hint) }
    }

    /// `--public-suffix-list`, or the bundled snapshot.
    public func loadPublicSuffixList() throws(InputError) -> PublicSuffixList { try loadSuffixes() }

    private func loadSuffixes() throws(InputError) -> PublicSuffixList {
        guard let publicSuffixListPath else { return PublicSuffixList.bundled() }
        do throws(PublicSuffixList.LoadError) {
            return try PublicSuffixList(contentsOf: publicSuffixListPath)
        } catch {
            throw InputError(error.description)
        }
    }

    /// A trace or a HAR capture, read as it is simulated.
    private enum Input {
        case stream(TraceStream)
        case har(HARStream)

        /// A trace's `policy:` header (a capture has none).
        var policyPath: String? {
            guard case .stream(let stream) = self else { return nil }
            return stream.assembler.policyPath
        }

        /// Where the `policy:` header's value is written.
        var policyRange: SourceRange? {
            guard case .stream(let stream) = self else { return nil }
            return stream.assembler.policyRange
        }

        var displayPath: String {
            switch self {
            case .stream(let stream): return stream.displayPath
            case .har(let capture): return capture.displayPath
            }
        }

        var isHAR: Bool {
            if case .har = self { return true }
            return false
        }

        var size: Int? {
            switch self {
            case .stream(let stream): return stream.size
            case .har(let capture): return capture.size
            }
        }
    }

    private func simulate(_ input: Input, with simulator: Simulator, subject: String, each watcher: Watcher?) -> SimulationReport.TraceResults {
        var results = SimulationReport.TraceResults(path: input.displayPath, subject: subject)
        let path = input.displayPath
        progress?.begin(ProgressStage("simulating \(path)", total: input.size, unit: .bytes, counted: .requests))
        let afterBlock = { (bytes: Int, requests: Int) -> Void in progress?.update(done: bytes, count: requests) }
        guard let watcher else {
            switch input {
            case .stream(let stream): results.add(simulator.tally(stream, afterBlock: afterBlock))
            case .har(let capture): results.add(simulator.tally(capture, afterBlock: afterBlock))
            }
            return results
        }
        if case .json(let json) = watcher, !keepsAllResults {
            // Lines written where they are decided; only their counts and failures kept here.
            let hand = { (chunk: JSONLinesChunk) in
                results.add(chunk.tally)
                json(.chunk(chunk), path)
            }
            switch input {
            case .stream(let stream): simulator.jsonLines(blocks: stream, each: hand, afterBlock: afterBlock)
            case .har(let capture): simulator.jsonLines(blocks: capture, each: hand, afterBlock: afterBlock)
            }
            return results
        }
        let each = watcher.eachResult
        let keep = { (result: RequestResult) in
            results.add(result, keepingAll: keepsAllResults)
            each(result, path)
        }
        switch input {
        case .stream(let stream): simulator.run(stream, each: keep, afterBlock: afterBlock)
        case .har(let capture): simulator.run(capture, each: keep, afterBlock: afterBlock)
        }
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

    /// The simulator of the bare lists alone (for benchmarks and tools that drive the
    /// simulation themselves); their first problem as an error.
    public func bareSimulator() throws(InputError) -> Simulator {
        guard !contentRulesPaths.isEmpty else { throw InputError("no content-blocker list given") }
        let suffixes = try loadSuffixes()
        var problems: [Diagnostic] = []
        var sources: [String: SourceFile] = [:]
        guard let simulator = bareSimulator(contentRulesPaths, suffixes: suffixes, problems: &problems, sources: &sources), problems.isEmpty else {
            throw InputError(problems.first.map { "\($0.location.path):\($0.location.range.start.line):\($0.location.range.start.column): \($0.message)" } ?? "\(contentRulesPaths.joined(separator: ", ")) cannot be simulated")
        }
        return simulator
    }

    /// Each list read as WebKit reads it; nil when any cannot be (every list's problems are
    /// reported: WebKit refuses a list on its own, but a simulation of some of the app's lists
    /// would not be the app's).
    private func bareSimulator(_ paths: [String], suffixes: PublicSuffixList, problems: inout [Diagnostic], sources: inout [String: SourceFile]) -> Simulator? {
        var engines: [ContentRuleEngine] = []
        for path in paths {
            // A list the cache has met and that has not changed since: its image, without
            // reading and hashing the list again.
            if let cache = engineCache, let identity = cache.rememberedIdentity(of: path),
               let engine = cache.cachedEngine(for: EngineCache.Key(identity: identity, path: path)) {
                engines.append(engine)
                continue
            }
            let stamp = engineCache == nil ? nil : ListStamp.of(path)
            guard let file = read(path, expecting: .contentBlockerList, problems: &problems, sources: &sources) else { continue }
            var errors: [Diagnostic] = []
            // A list an earlier run built is not parsed again: its image was written only after
            // WebKit's parser (ported) accepted it.
            func build() -> ContentRuleEngine? {
                // The rules are handed over, not kept: the builder lets the positioned tree go
                // once it has read the rules, and a real list's tree is larger than the engine.
                func engine(of rules: consuming [(index: Int, node: JSONNode)]) -> ContentRuleEngine {
                    let nodes = rules.map { rule in (rule: rule.node, origin: RuleOrigin(index: rule.index, id: nil, location: file.location(rule.node.range))) }
                    _ = consume rules
                    return ContentRuleEngine(ruleNodes: nodes)
                }
                // The kept rules' regexes are parsed once, by the engine (twice was a sixth
                // of building a real list's); a list with a problem, or one whose engine met a
                // regex WebKit refuses, is read again in full for WebKit's own errors.
                var quick = ContentBlockerImporter.parseList(file, deferringKeptRulesRegexes: true)
                var built: ContentRuleEngine?
                if !quick.diagnostics.contains(where: { $0.severity == .error }), let rules = quick.rules.take() {
                    built = engine(of: rules)
                    if built?.refusesAFilter == false { return built }
                }
                let imported = ContentBlockerImporter.parseList(file)
                errors = imported.diagnostics.filter { $0.severity == .error }
                guard errors.isEmpty, let parsed = imported.rules else { return nil }
                return built ?? engine(of: parsed)
            }
            let engine: ContentRuleEngine?
            if let cache = engineCache {
                let key = EngineCache.Key(list: file.text.utf8, path: path)
                engine = cache.engine(for: key, build: build)
                if engine != nil { cache.remember(key.identity, of: path, stampedBefore: stamp) }
            } else {
                engine = build()
            }
            problems += errors
            guard let engine else { continue }
            engines.append(engine)
            // The list's text stays only to quote a problem.
            sources[path] = nil
        }
        guard engines.count == paths.count else { return nil }
        return Simulator(engine: DecisionEngine(lists: engines, rules: nil, publicSuffixList: suffixes))
    }
}
