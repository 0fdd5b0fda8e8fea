import WebPolicyRuntime

/// A chunk of a trace's lines as `--format json` writes them, made on the core that decided
/// them (a `SimulationOutput`): each line's bytes but for `trace` and `shared`, which
/// `SimulationJSONWriter` puts in, in order, on the thread that writes the output; and the
/// counts of the lines, which the summary at the end adds up.
public struct JSONLinesChunk: SimulationOutput {
    /// A page's universal rules that lines of the chunk take from a shared record, with the
    /// texts of those that act (which a line's own lists leave out).
    struct Common {
        let match: ContentRuleEngine.UniversalMatch
        let engine: ContentRuleEngine
        let texts: ContentMatches.CommonTexts

        /// Whether `match` of `engine` lists the same rules as this one: then lines share a
        /// record, whichever page's object holds them.
        static func same(_ match: ContentRuleEngine.UniversalMatch, _ engine: ContentRuleEngine,
                         as other: ContentRuleEngine.UniversalMatch, _ otherEngine: ContentRuleEngine) -> Bool {
            engine === otherEngine && (match === other || (match.commonMatched == other.commonMatched && match.commonSurviving == other.commonSurviving))
        }
    }

    /// A line in `bytes`: from `start`, `shared` where a `shared` member goes, up to `end`.
    struct Line {
        var start: Int
        var shared: Int
        var end: Int
        /// The line's common match in `commons`, or -1 when it names none.
        var common: Int
    }

    var bytes: [UInt8] = []
    var lines: [Line] = []
    var commons: [Common] = []
    /// The lines' counts, and the results of those that failed.
    var tally = Tally()
    /// The match objects met last and their places in `commons`.
    private var recentPlaces: [(match: ContentRuleEngine.UniversalMatch, engine: ContentRuleEngine, place: Int)] = []

    init() {}

    init(capacity: Int) {
        lines.reserveCapacity(capacity)
        // A real list's lines are about 500 bytes.
        bytes.reserveCapacity(capacity * 512)
    }

    static var countsVerdicts: Bool { false }

    mutating func count(_ verdict: Verdict, checked: Bool) {
        preconditionFailure("a line is written for every request")
    }

    mutating func add(_ entry: TraceEntry, _ outcome: consuming LineOutcome) {
        add(RequestResult(entry: entry, decision: outcome.decision, failures: outcome.failures))
    }

    mutating func add(_ result: RequestResult) {
        tally.add(result)
        var common = -1
        var own: ResultLine.Own?
        if let match = result.content.shared, let engine = result.content.lists.first?.engine, !match.commonMatched.isEmpty {
            common = place(match, engine)
            let known = commons[common]
            // Beyond the line's own match (of the same rules as the chunk's): the same lists,
            // found without walking the common rules.
            let (matched, hidden, notifications) = result.content.own(beyond: match, commonTexts: known.texts)
            own = ResultLine.Own(matched: matched, hidden: hidden, notifications: notifications, engine: engine)
        }
        let start = bytes.count
        let shared = ResultLine.write(result, own: own, into: &bytes)
        lines.append(Line(start: start, shared: shared, end: bytes.count, common: common))
    }

    /// The lines and counts gone, the common matches and texts kept (for lines handed over
    /// one at a time).
    mutating func removeLines() {
        bytes.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        tally = Tally()
        // No line names a common match now: the oldest can go.
        if commons.count > 32 {
            commons.removeFirst(commons.count - 16)
            recentPlaces.removeAll()
        }
    }

    /// `match`'s place in `commons`, added if new. A chunk meets a few: pages come and go, and
    /// a page's kinds of load each have theirs.
    private mutating func place(_ match: ContentRuleEngine.UniversalMatch, _ engine: ContentRuleEngine) -> Int {
        // The objects met last first (a page's lines of one kind share theirs; each page has
        // its own objects of the same rules), then the same rules.
        if let known = recentPlaces.last(where: { $0.match === match && $0.engine === engine }) { return known.place }
        let place = commons.lastIndex(where: { Common.same(match, engine, as: $0.match, $0.engine) }) ?? newPlace(match, engine)
        recentPlaces.append((match, engine, place))
        if recentPlaces.count > 16 { recentPlaces.removeFirst() }
        return place
    }

    private mutating func newPlace(_ match: ContentRuleEngine.UniversalMatch, _ engine: ContentRuleEngine) -> Int {
        commons.append(Common(match: match, engine: engine, texts: ContentMatches.CommonTexts(match, of: engine)))
        return commons.count - 1
    }
}

extension Tally {
    /// One result's counts; kept when it failed.
    mutating func add(_ result: RequestResult) {
        verdicts[result.verdict.ordinal] += 1
        if !result.hasExpectations {
            unchecked += 1
        } else if result.passed {
            passed += 1
        } else {
            failed += 1
            failures.append(result)
        }
    }
}
