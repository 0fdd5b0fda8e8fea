import WebPolicyRuntime

/// What one trace line came to: the engine's decision, and what did not hold of what the line
/// expected (empty when everything did, or nothing was expected).
struct LineOutcome: Sendable {
    var decision: Decision
    var failures: [String]
}

/// What a chunk of lines is simulated into, on the core that decides them: a result for every
/// line (for reports that show each), or counts (for a summary).
protocol SimulationOutput: Sendable {
    init(capacity: Int)
    /// `outcome` is handed over: borrowed, it was copied whole (every reference of the
    /// decision retained and released) on every line.
    mutating func add(_ entry: TraceEntry, _ outcome: consuming LineOutcome)
    /// Whether a verdict alone is enough for a line that holds no more than an `expect=`
    /// (then `count` takes it, when the expectation holds).
    static var countsVerdicts: Bool { get }
    /// A line counted by its verdict; `checked`: it had an `expect=`, which holds.
    mutating func count(_ verdict: Verdict, checked: Bool)
}

extension Array: SimulationOutput where Element == RequestResult {
    init(capacity: Int) {
        self.init()
        reserveCapacity(capacity)
    }

    mutating func add(_ entry: TraceEntry, _ outcome: consuming LineOutcome) {
        append(RequestResult(entry: entry, decision: outcome.decision, failures: outcome.failures))
    }

    static var countsVerdicts: Bool { false }

    mutating func count(_ verdict: Verdict, checked: Bool) {
        preconditionFailure("results are made for every line")
    }
}

/// The counts of simulated lines — by verdict; passed, failed and without expectations — and
/// the results of the lines that failed, which reports show in full. A summary of a million
/// lines needs no result for each: they are counted on the core that decides them.
public struct Tally: Sendable, SimulationOutput {
    /// Requests by verdict, in `Verdict.allCases` order.
    public var verdicts = [Int](repeating: 0, count: Verdict.allCases.count)
    public var passed = 0
    public var failed = 0
    public var unchecked = 0
    /// The lines whose expectations did not hold, in order.
    public var failures: [RequestResult] = []

    public init() {}

    init(capacity: Int) {}

    public var requests: Int { passed + failed + unchecked }

    mutating func add(_ entry: TraceEntry, _ outcome: consuming LineOutcome) {
        verdicts[outcome.decision.verdict.ordinal] += 1
        if !entry.hasExpectations {
            unchecked += 1
        } else if outcome.failures.isEmpty {
            passed += 1
        } else {
            failed += 1
            failures.append(RequestResult(entry: entry, decision: outcome.decision, failures: outcome.failures))
        }
    }

    static var countsVerdicts: Bool { true }

    mutating func count(_ verdict: Verdict, checked: Bool) {
        verdicts[verdict.ordinal] += 1
        if checked { passed += 1 } else { unchecked += 1 }
    }

    /// The counts of `other`'s lines, which come after these.
    public mutating func add(_ other: Tally) {
        for index in verdicts.indices { verdicts[index] += other.verdicts[index] }
        passed += other.passed
        failed += other.failed
        unchecked += other.unchecked
        failures += other.failures
    }
}
