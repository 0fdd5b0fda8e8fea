import Foundation
import WebPolicyRuntime

/// What simulate decides for one trace line: the engine's decision, and what the line
/// expected of it.
public struct RequestResult: Sendable {
    /// The line, its decision and its failures in one object: a result is handed from the
    /// core that decided it to the reporter, kept, and copied into reports, and a copy should
    /// cost one reference count, not one for each of the dozens of references a line and a
    /// decision hold (the profile of a million-request simulate: a fifth of the time was
    /// copying and releasing results field by field).
    private final class Storage: @unchecked Sendable {
        // Mutated only through a uniquely referenced RequestResult (copy on write).
        var entry: TraceEntry
        var decision: Decision
        var failures: [String]

        init(entry: TraceEntry, decision: Decision, failures: [String]) {
            self.entry = entry
            self.decision = decision
            self.failures = failures
        }
    }

    private var storage: Storage

    public init(entry: TraceEntry, decision: Decision, failures: [String] = []) {
        storage = Storage(entry: entry, decision: decision, failures: failures)
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(entry: storage.entry, decision: storage.decision, failures: storage.failures) }
    }

    public var entry: TraceEntry {
        _read { yield storage.entry }
        _modify { makeUnique(); yield &storage.entry }
    }

    public var decision: Decision {
        _read { yield storage.decision }
        _modify { makeUnique(); yield &storage.decision }
    }

    /// What did not hold: empty when every expectation of the line holds.
    public var failures: [String] {
        _read { yield storage.failures }
        _modify { makeUnique(); yield &storage.failures }
    }

    public var topURL: CanonicalURL { decision.topURL }
    public var verdict: Verdict { decision.verdict }
    /// The URL the load continues with (upgraded by `make-https`).
    public var finalURL: CanonicalURL { decision.finalURL }
    /// What the content rules did, as rule positions.
    public var content: ContentMatches { decision.content }
    /// The WebKit actions that survive, in the order block, block-cookies, css-display-none,
    /// make-https, notify (each once).
    public var actions: [ContentActionType] { decision.actions }
    /// Every content rule whose trigger matched, in rule order, before ignore rules.
    public var matchedRules: [RuleOrigin] { decision.matchedRules }
    /// The rule or policy entry that decided the verdict, if one did.
    public var decidedBy: RuleOrigin? { decision.decidedBy }
    /// The `ignore-previous-rules` that cancelled earlier matches, if one did.
    public var cancelledBy: RuleOrigin? { decision.cancelledBy }
    public var why: Why { decision.why }
    public var reason: String { decision.reason }
    public var cookies: [String] { decision.cookies }
    public var hiddenSelectors: [String] { decision.hiddenSelectors }
    public var notifications: [String] { decision.notifications }
    public var hasExpectations: Bool { entry.hasExpectations }
    public var passed: Bool { failures.isEmpty }
}

/// Replays trace lines through the decision engine (WebPolicyRuntime's `DecisionEngine`, the
/// one the app's runtime uses): it keeps each line's web-view state, spreads blocks of lines
/// over the cores, and checks each result against what the line expected.
public struct Simulator: Sendable {
    public let engine: DecisionEngine
    /// How many cores a block of lines is spread over (1: all on the calling thread).
    public var parallelism = ProcessInfo.processInfo.activeProcessorCount
    /// The `runtime-hosts` roles bound before the trace's first line (`--bind`); a trace's
    /// `bind` lines change them as it goes.
    public var bindings = HostBindings()
    private let scratches = ScratchPool()

    /// The web view before the first line: nothing shown, the roles bound as `bindings` says.
    private var startState: WebViewState {
        var state = WebViewState()
        state.bindings = bindings
        return state
    }

    /// Simulates a policy: its content rules as compile lowers and splits them, and its
    /// runtime manifest as compile writes it. With `engineCache`, each list's engine comes
    /// from the image an earlier run left there for the same rules, or is built and left there.
    public init(policy: Policy, publicSuffixList: PublicSuffixList, engineCache: EngineCache? = nil) {
        self.init(build: PolicyBuild(policy), publicSuffixList: publicSuffixList, engineCache: engineCache)
    }

    /// Simulates a build of a policy (`PolicyBuild`).
    public init(build: PolicyBuild, publicSuffixList: PublicSuffixList, engineCache: EngineCache? = nil) {
        engine = build.engine(publicSuffixList: publicSuffixList, engineCache: engineCache)
    }

    /// Simulates a bare content-blocker list: only what WebKit itself does.
    public init(contentRules: consuming [(rule: JSONValue, origin: RuleOrigin)], publicSuffixList: PublicSuffixList) {
        engine = DecisionEngine(lists: [ContentRuleEngine(rules: consume contentRules)], rules: nil, publicSuffixList: publicSuffixList)
    }

    /// Simulates bare content-blocker lists, in the order the app adds them, each evaluated on
    /// its own (WebKit `ContentExtensionsBackend::processContentRuleListsForLoad`).
    public init(contentRuleLists: consuming [[(rule: JSONValue, origin: RuleOrigin)]], publicSuffixList: PublicSuffixList) {
        engine = DecisionEngine(lists: contentRuleLists.map { ContentRuleEngine(rules: $0) }, rules: nil, publicSuffixList: publicSuffixList)
    }

    /// Simulates with an engine built elsewhere (a compiled folder, through `RuntimePolicy`).
    public init(engine: DecisionEngine) {
        self.engine = engine
    }

    public func run(_ trace: Trace) -> [RequestResult] {
        var results: [RequestResult] = []
        results.reserveCapacity(trace.entries.count)
        run(trace) { results.append($0) }
        return results
    }

    /// Simulates the trace's requests in order, handing each result to `each` and keeping
    /// none: a trace of millions of requests needs memory for one block.
    public func run(_ trace: Trace, each: (RequestResult) -> Void) {
        var state = startState
        for results in run(block: trace.entries, state: &state, into: [RequestResult].self) { hand(results, to: each) }
    }

    /// Simulates a streamed trace a block at a time, in order. The next block is read and
    /// parsed on another thread while this one is simulated: reading, checking and putting
    /// lines together in order are sequential work that would otherwise leave cores idle.
    /// `afterBlock` is told, after each block, how many bytes of the trace are read and how
    /// many requests decided (for progress).
    public func run(_ stream: TraceStream, each: (RequestResult) -> Void, afterBlock: (_ bytes: Int, _ requests: Int) -> Void = { _, _ in }) {
        run(blocks: stream, each: each, afterBlock: afterBlock)
    }

    /// A streamed HAR capture, as a streamed trace.
    public func run(_ stream: HARStream, each: (RequestResult) -> Void, afterBlock: (_ bytes: Int, _ requests: Int) -> Void = { _, _ in }) {
        run(blocks: stream, each: each, afterBlock: afterBlock)
    }

    func run(blocks stream: some TraceBlockSource, each: (RequestResult) -> Void, afterBlock: (_ bytes: Int, _ requests: Int) -> Void = { _, _ in }) {
        run(blocks: stream, into: [RequestResult].self, each: { hand($0, to: each) }, afterBlock: afterBlock)
    }

    /// `run` for `--format json`: each chunk's lines written on the core that decided them.
    func jsonLines(blocks stream: some TraceBlockSource, each: (JSONLinesChunk) -> Void, afterBlock: (_ bytes: Int, _ requests: Int) -> Void = { _, _ in }) {
        run(blocks: stream, into: JSONLinesChunk.self, each: each, afterBlock: afterBlock)
    }

    private func run<Output: SimulationOutput>(blocks stream: some TraceBlockSource, into: Output.Type, each: (Output) -> Void,
                                               afterBlock: (_ bytes: Int, _ requests: Int) -> Void) {
        var state = startState
        let prefetch = BlockPrefetch(stream)
        var requests = 0
        while let runs = prefetch.next() {
            let block = prepare(chunks(ofSegments: runs.map { $0.materialised() }), state: &state)
            for output in simulate(block, into: Output.self) { each(output) }
            requests += block.chunks.reduce(0) { $0 + $1.entries.count }
            afterBlock(prefetch.bytesRead, requests)
        }
    }

    /// The counts of a trace — by verdict, passed, failed, unchecked — and the results of the
    /// lines that failed, without a result for every line: what a summary needs. The same
    /// decisions as `run`, counted where they are made.
    public func tally(_ trace: Trace) -> Tally {
        var state = startState
        return run(block: trace.entries, state: &state, into: Tally.self).reduce(into: Tally()) { $0.add($1) }
    }

    /// `tally` of a streamed trace, a block at a time.
    /// Over bare lists, plain subresource lines are counted as they were read, without an
    /// entry for each (`PlainLine`).
    public func tally(_ stream: TraceStream, afterBlock: (_ bytes: Int, _ requests: Int) -> Void = { _, _ in }) -> Tally {
        stream.keepsPlainLines = engine.countsVerdicts
        return tally(blocks: stream, afterBlock: afterBlock)
    }

    /// `tally` of a streamed HAR capture.
    public func tally(_ stream: HARStream, afterBlock: (_ bytes: Int, _ requests: Int) -> Void = { _, _ in }) -> Tally {
        tally(blocks: stream, afterBlock: afterBlock)
    }

    func tally(blocks stream: some TraceBlockSource, afterBlock: (_ bytes: Int, _ requests: Int) -> Void = { _, _ in }) -> Tally {
        var state = startState
        let prefetch = BlockPrefetch(stream)
        var total = Tally()
        while let runs = prefetch.next() {
            for part in simulate(prepare(chunks(ofRuns: runs), state: &state), into: Tally.self) { total.add(part) }
            afterBlock(prefetch.bytesRead, total.requests)
        }
        return total
    }

    private func hand(_ results: [RequestResult], to each: (RequestResult) -> Void) {
        for result in results { each(result) }
    }

    /// Replays a trace through this simulator and `other` side by side (`webpolicy diff`):
    /// `each` sees both results of every line, in order. Each keeps its own web-view state,
    /// as two apps would.
    public func run(_ trace: Trace, against other: Simulator, each: (RequestResult, RequestResult) -> Void) {
        var states = (startState, startState)
        runPaired(trace.entries, against: other, states: &states, each: each)
    }

    /// The streamed form of `run(_:against:each:)`: a block of lines at a time, both
    /// simulators on the same block, so a trace is read once (standard input included).
    public func run(_ stream: TraceStream, against other: Simulator, each: (RequestResult, RequestResult) -> Void) {
        run(blocks: stream, against: other, each: each)
    }

    /// A streamed HAR capture through both.
    public func run(_ stream: HARStream, against other: Simulator, each: (RequestResult, RequestResult) -> Void) {
        run(blocks: stream, against: other, each: each)
    }

    func run(blocks stream: some TraceBlockSource, against other: Simulator, each: (RequestResult, RequestResult) -> Void) {
        var states = (startState, startState)
        let prefetch = BlockPrefetch(stream)
        while let runs = prefetch.next() {
            let segments = runs.map { $0.materialised() }
            runPaired(segments.count == 1 ? segments[0] : Array(segments.joined()), against: other, states: &states, each: each)
        }
    }

    private func runPaired(_ entries: [TraceEntry], against other: Simulator, states: inout (WebViewState, WebViewState), each: (RequestResult, RequestResult) -> Void) {
        let mine = run(block: entries, state: &states.0, into: [RequestResult].self).flatMap { $0 }
        var position = 0
        for results in other.run(block: entries, state: &states.1, into: [RequestResult].self) {
            for theirs in results {
                each(mine[position], theirs)
                position += 1
            }
        }
    }

    /// Lines per chunk below which a block is simulated on one core.
    static let minimumChunk = 2_048

    /// Simulates one block of lines into one `Output` per chunk, in order: split into chunks
    /// for the cores.
    private func run<Output: SimulationOutput>(block entries: [TraceEntry], state: inout WebViewState, into: Output.Type) -> [Output] {
        let chunkCount = parallelism <= 1 ? 1 : Swift.min(parallelism * 2, entries.count / Self.minimumChunk)
        guard chunkCount > 1 else { return run(chunks: [Chunk(entries: entries[...])], state: &state, into: Output.self) }
        let bounds = (0...chunkCount).map { entries.count * $0 / chunkCount }
        return run(chunks: (0..<chunkCount).map { Chunk(entries: entries[bounds[$0]..<bounds[$0 + 1]]) }, state: &state, into: Output.self)
    }

    /// A streamed block as the runs its lines were parsed in, plain lines kept (a counted
    /// simulation): each run is a chunk.
    private func chunks(ofRuns runs: [TraceRun]) -> [Chunk] {
        runs.map { Chunk(entries: $0.entries[...], plain: $0.plain, bytes: $0.bytes) }
    }

    /// A streamed block as the runs its lines were parsed in, materialised: each run is a chunk.
    private func chunks(ofSegments segments: [[TraceEntry]]) -> [Chunk] {
        segments.map { Chunk(entries: $0[...]) }
    }

    /// Lines simulated together on one core: entries, and plain lines of the block `bytes`,
    /// each after as many entries as it says.
    private struct Chunk: Sendable {
        var entries: ArraySlice<TraceEntry>
        var plain: [(entriesBefore: Int32, line: PlainLine)] = []
        var bytes: [UInt8] = []
    }

    /// Simulates chunks of lines in order into one `Output` each: on every core, each from the
    /// state its first line inherits (`prepare`).
    private func run<Output: SimulationOutput>(chunks: [Chunk], state: inout WebViewState, into: Output.Type) -> [Output] {
        guard chunks.count > 1 else {
            var scratch = scratches.take(for: engine)
            defer { scratches.give(back: scratch) }
            return [simulate(chunks.first ?? Chunk(entries: []), from: &state, scratch: &scratch, known: [:], into: Output.self)]
        }
        return simulate(prepare(chunks, state: &state), into: Output.self)
    }

    /// Chunks made ready for the cores: each with the state its first line inherits and the
    /// outcomes of its lines that may move the page (`movesPage`), decided in order.
    private struct PreparedChunks: Sendable {
        var chunks: [Chunk]
        var starts: [WebViewState]
        var known: [[Int: LineOutcome]]
        /// Whether the chunks are worth spreading over the cores (else one after the other).
        var spread: Bool
    }

    /// Only a page, or a new window that a policy's navigation rules load in the same view,
    /// changes what later lines see (`WebViewState.advance`): such lines are decided first, in
    /// order, and each chunk then runs from the state its first line inherits, on any core.
    private func prepare(_ chunks: [Chunk], state: inout WebViewState) -> PreparedChunks {
        var scratch = scratches.take(for: engine)
        defer { scratches.give(back: scratch) }
        var starts: [WebViewState] = []
        var known: [[Int: LineOutcome]] = []
        starts.reserveCapacity(chunks.count)
        known.reserveCapacity(chunks.count)
        for chunk in chunks {
            starts.append(state)
            var decided: [Int: LineOutcome] = [:]
            for index in chunk.entries.indices where Self.movesPage(chunk.entries[index]) {
                decided[index] = step(chunk.entries[index], &state, scratch: &scratch)
            }
            known.append(decided)
        }
        let total = chunks.reduce(0) { $0 + $1.entries.count + $1.plain.count }
        return PreparedChunks(chunks: chunks, starts: starts, known: known, spread: parallelism > 1 && chunks.count > 1 && total >= 2 * Self.minimumChunk)
    }

    /// Whether a line may change the view's state: a page, a new window (which a policy's
    /// `new-windows: same-view` loads as the page), or a binding. Plain lines (bare lists)
    /// never do.
    private static func movesPage(_ entry: TraceEntry) -> Bool {
        entry.kind == .page || entry.resourceType == .popup || entry.bind != nil
    }

    /// The outputs of prepared chunks, in order.
    private func simulate<Output: SimulationOutput>(_ prepared: PreparedChunks, into: Output.Type) -> [Output] {
        let simulateChunk = { @Sendable (number: Int) -> Output in
            var state = prepared.starts[number]
            var scratch = scratches.take(for: engine)
            defer { scratches.give(back: scratch) }
            return simulate(prepared.chunks[number], from: &state, scratch: &scratch, known: prepared.known[number], into: Output.self)
        }
        guard prepared.spread else { return prepared.chunks.indices.map(simulateChunk) }
        return Array(prepared.chunks.indices).parallelMap(minimumChunk: 1, simulateChunk)
    }

    /// Simulates one chunk's lines in order from `state`; `known`: the outcomes of its lines
    /// that may move the page, decided before. An output that only counts takes the verdict
    /// alone of each plain subresource line (`DecisionEngine.countedVerdict`) — read from the
    /// block where it lies, or from its entry — without a decision to hold what matched, and
    /// the whole decision of the others: of a line before any page, and of one whose `expect=`
    /// fails, which a report shows in full.
    private func simulate<Output: SimulationOutput>(_ chunk: Chunk, from state: inout WebViewState, scratch: inout DecisionEngine.Scratch,
                                                    known: [Int: LineOutcome], into: Output.Type) -> Output {
        var output = Output(capacity: chunk.entries.count + chunk.plain.count)
        var page = Output.countsVerdicts ? engine.countedPage(for: state) : nil
        var contexts = CountedContexts()
        var pageOfContexts = page
        let entries = chunk.entries
        var next = entries.startIndex
        if !chunk.plain.isEmpty {
            precondition(Output.countsVerdicts, "plain lines are kept for counted simulations only")
            chunk.bytes.withUnsafeBufferPointer { bytes in
                for (before, line) in chunk.plain {
                    while next < entries.startIndex + Int(before) {
                        simulate(entries[next], at: next, page: &page, state: &state, scratch: &scratch, known: known, into: &output)
                        next += 1
                    }
                    // A line that names its page or frame is matched on that page, the
                    // view's page left as it is (a frame without a top is on the view's page:
                    // when that moves, those are worked out again).
                    if page !== pageOfContexts {
                        contexts.viewMoved()
                        pageOfContexts = page
                    }
                    if let current = line.namesItsContext ? contexts.page(of: line, in: bytes, state: state, engine: engine) : page,
                       let verdict = engine.countedVerdict(url: UnsafeBufferPointer(rebasing: bytes[Int(line.requestStart)..<Int(line.requestEnd)]),
                                                           host: UnsafeBufferPointer(rebasing: bytes[Int(line.hostStart)..<Int(line.hostEnd)]),
                                                           isUpgradable: line.isUpgradable, resourceType: line.resourceType, on: current, scratch: &scratch),
                       line.expect == nil || line.expect == verdict {
                        output.count(verdict, checked: line.expect != nil)
                        continue
                    }
                    // A subresource leaves the page as it is, but for one a policy's navigation
                    // rules let replace it (then it counts as a page loaded).
                    let entry = line.entry(in: bytes), pagesLoaded = state.pagesLoaded
                    output.add(entry, step(entry, &state, scratch: &scratch))
                    if state.pagesLoaded != pagesLoaded { page = engine.countedPage(for: state) }
                }
            }
        }
        while next < entries.endIndex {
            simulate(entries[next], at: next, page: &page, state: &state, scratch: &scratch, known: known, into: &output)
            next += 1
        }
        return output
    }

    /// One entry of a chunk (`index`: its position, for `known`). A method, not a function
    /// nested in `simulate`: one that captured the chunk's state, page and output had every
    /// line check exclusive access to them at run time.
    private func simulate<Output: SimulationOutput>(_ entry: TraceEntry, at index: Int, page: inout DecisionEngine.CountedPage?, state: inout WebViewState,
                                                    scratch: inout DecisionEngine.Scratch, known: [Int: LineOutcome], into output: inout Output) {
        if let current = page, entry.isPlain, let verdict = engine.countedVerdict(entry.load, on: current, scratch: &scratch),
           entry.expect == nil || entry.expect == verdict {
            output.count(verdict, checked: entry.expect != nil)
            return
        }
        let outcome = step(entry, &state, scratch: &scratch, known: Self.movesPage(entry) ? known[index] : nil)
        // The counted page is worked out again only when the line may have moved the view's
        // page (`WebViewState.advance`): a ping's, made again for each, cost a Public Suffix
        // List walk of the top host.
        let mayMovePage = entry.kind == .page || outcome.decision.replacesPage
        output.add(entry, outcome)
        if Output.countsVerdicts, mayMovePage || page == nil { page = engine.countedPage(for: state) }
    }

    /// One line: its decision and what did not hold of its expectations (or those already
    /// decided for it), and the state it leaves.
    private func step(_ entry: TraceEntry, _ state: inout WebViewState, scratch: inout DecisionEngine.Scratch, known: LineOutcome? = nil) -> LineOutcome {
        let request = entry.request
        let outcome: LineOutcome
        if let known {
            outcome = known
        } else {
            let decision = engine.decide(request, in: state, scratch: &scratch)
            outcome = LineOutcome(decision: decision, failures: failures(of: entry, decision, in: state))
        }
        state.advance(past: request, outcome.decision)
        return outcome
    }

    private func failures(of entry: TraceEntry, _ decision: Decision, in state: WebViewState) -> [String] {
        var failures: [String] = []
        if let expected = entry.expect, expected != decision.verdict {
            failures.append("expected \(expected.rawValue), got \(decision.verdict.rawValue)")
        } else if entry.bind != nil, entry.expect == nil, decision.verdict != .allow {
            // A binding is the app's own act: the trace expects it accepted unless it says
            // `expect=block`.
            failures.append("the binding is refused (a bind line expects it accepted unless it says expect=block)")
        }
        if let expected = entry.expectHandoff, expected != decision.isHandedToSystem {
            failures.append(expected ? "expected the view to hand the URL to the system, but it does not" : "expected the view to keep the URL, but it hands it to the system")
        }
        if let expected = entry.actions, Set(expected) != Set(decision.actions) {
            let shown = { (actions: [ContentActionType]) in actions.isEmpty ? "none" : actions.map(\.rawValue).joined(separator: ",") }
            failures.append("expected actions \(shown(expected)), got \(shown(decision.actions))")
        }
        if let expected = entry.cookies, Set(expected) != Set(decision.cookies) {
            let shown = { (names: [String]) in names.isEmpty ? "none" : names.joined(separator: ",") }
            let reasons = cookieReasons(expected: expected, entry, decision, in: state)
            failures.append("expected cookies \(shown(expected)), got \(shown(decision.cookies))" + reasons.map { "; " + $0 }.joined())
        }
        return failures
    }

    /// For a failed `cookies=`: each expected cookie that is not sent with the one condition
    /// that kept it back, each unexpected one that is sent, with where it is written.
    private func cookieReasons(expected: [String], _ entry: TraceEntry, _ decision: Decision, in state: WebViewState) -> [String] {
        let outcomes = engine.cookieOutcomes(for: entry.load, in: state, decision: decision)
        let sent = Set(decision.cookies)
        var reasons: [String] = []
        for name in expected where !sent.contains(name) {
            let candidates = outcomes.filter { $0.cookie.name == name }
            if candidates.isEmpty { reasons.append("the policy has no cookie '\(name)'") }
            for (cookie, outcome) in candidates {
                reasons.append("'\(name)'\(Self.at(cookie.location)) is not sent: \(outcome.reason(for: cookie) ?? "")")
            }
        }
        let wanted = Set(expected)
        for (cookie, outcome) in outcomes where outcome == .sent && !wanted.contains(cookie.name) {
            reasons.append("'\(cookie.name)'\(Self.at(cookie.location)) is sent: its domain and path cover the load, and nothing keeps it back")
        }
        return reasons
    }

    private static func at(_ location: SourceLocation?) -> String {
        location.map { " (\($0.described))" } ?? ""
    }
}

/// What a simulation reads a block at a time: a trace or a HAR capture.
protocol TraceBlockSource: AnyObject {
    /// The next block, as the runs its lines were read in; nil at the end.
    func nextRuns() -> [TraceRun]?
    /// How far through the input reading has come, in bytes.
    var bytesRead: Int { get }
}

extension TraceStream: TraceBlockSource {}

/// Reads a stream's next block ahead, on another thread, one block at a time.
private final class BlockPrefetch: @unchecked Sendable {
    private let stream: any TraceBlockSource
    private var ahead: [TraceRun]?
    private var done = false
    private let ready = DispatchSemaphore(value: 0)
    /// The stream's bytes read when the block `next` returned was parsed (read after the
    /// semaphore, before the next read starts: never while the stream is being read).
    private(set) var bytesRead = 0

    init(_ stream: any TraceBlockSource) {
        self.stream = stream
        fetch()
    }

    /// Starts reading the next block; only one read is under way at a time, and the stream is
    /// touched by nothing else meanwhile.
    private func fetch() {
        DispatchQueue.global().async { [self] in
            ahead = stream.nextRuns()
            ready.signal()
        }
    }

    /// The next block (waiting for it), or nil at the end.
    func next() -> [TraceRun]? {
        guard !done else { return nil }
        ready.wait()
        let entries = ahead
        ahead = nil
        bytesRead = stream.bytesRead
        if entries == nil { done = true } else { fetch() }
        return entries
    }
}
