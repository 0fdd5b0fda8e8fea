import WebPolicyRuntime

/// What a simulation came to, in counts: one JSON object that shards of a trace simulated
/// apart (`parallel --pipe`, a cluster) add up to the whole (docs/scale.md).
public struct SimulationSummary: Equatable, Sendable {
    public var traces = 0
    public var passed = 0
    public var failed = 0
    /// Requests without expectations.
    public var unchecked = 0
    /// Requests by verdict, in `Verdict.allCases` order.
    public var verdicts = [Int](repeating: 0, count: Verdict.allCases.count)

    public init() {}

    public var requests: Int { verdicts.reduce(0, +) }

    public static func + (left: SimulationSummary, right: SimulationSummary) -> SimulationSummary {
        var sum = left
        sum.traces += right.traces
        sum.passed += right.passed
        sum.failed += right.failed
        sum.unchecked += right.unchecked
        for index in sum.verdicts.indices { sum.verdicts[index] += right.verdicts[index] }
        return sum
    }

    public var json: JSONValue {
        .object([("summary", .object([
            ("traces", .int(traces)),
            ("requests", .int(requests)),
            ("passed", .int(passed)),
            ("failed", .int(failed)),
            ("unchecked", .int(unchecked)),
            ("verdicts", .object(Verdict.allCases.enumerated().map { ($0.element.rawValue, .int(verdicts[$0.offset])) })),
        ]))])
    }

    public var jsonLine: String { json.serialized(pretty: false) + "\n" }

    /// `N requests: N allow, N block, N upgrade, N intercept` and `N passed, N failed`.
    public var human: String {
        let counts = Verdict.allCases.enumerated().map { "\(verdicts[$0.offset]) \($0.element.rawValue)" }.joined(separator: ", ")
        return "\(requests) request\(requests == 1 ? "" : "s") in \(traces) trace\(traces == 1 ? "" : "s"): \(counts)\n\(passed) passed, \(failed) failed\n"
    }

    /// The summary of a line of text, if it is one.
    public init?(jsonLine: String) {
        guard case .success(let node) = JSONDocument.parse(jsonLine) else { return nil }
        self.init(node.jsonValue)
    }

    /// A summary object as `json` writes it; nil for any other JSON (a request line).
    public init?(_ value: JSONValue) {
        guard let summary = value.member("summary") else { return nil }
        func count(_ key: String, in object: JSONValue = summary) -> Int? {
            if case .int(let number)? = object.member(key), number >= 0 { return number }
            return nil
        }
        guard let traces = count("traces"), let passed = count("passed"), let failed = count("failed"),
              let unchecked = count("unchecked"), let verdicts = summary.member("verdicts") else { return nil }
        self.traces = traces
        self.passed = passed
        self.failed = failed
        self.unchecked = unchecked
        for (index, verdict) in Verdict.allCases.enumerated() {
            guard let value = count(verdict.rawValue, in: verdicts) else { return nil }
            self.verdicts[index] = value
        }
    }
}
