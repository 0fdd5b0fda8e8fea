import WebPolicyRuntime

/// `simulate --format json`: JSON Lines written as results are decided (docs/trace-format.md).
///
/// A real blocklist applies hundreds of universal rules (`css-display-none` on every page, with
/// thousands of selectors) to every request; repeating them on each line made 20,000 requests
/// 4.7 GB. The part that is the same from page to page is written once, as a `shared` record,
/// and each request that it all acts on names the record (`"shared": "s1"`) and lists only
/// what it adds: its own matched rules, hidden selectors and notifications. The output stays
/// proportional to what differs per request.
public struct SimulationJSONWriter {
    /// A record written: its rules (to know it again by content), texts and name.
    private struct Record {
        let match: ContentRuleEngine.UniversalMatch
        let engine: ContentRuleEngine
        let name: String
        let texts: (hidden: Set<String>, notifications: Set<String>)
    }

    /// Records written lately; kinds of load and pages come and go, so a few are enough (one
    /// that was forgotten is written again under a new name).
    private var recent: [Record] = []
    private var written = 0
    private var ownTexts = ContentMatches.OwnTextsMemo()

    public init() {}

    /// The lines for one result: its shared record first when it is new, then the request.
    public mutating func lines(for result: RequestResult, trace: String) -> String {
        var output = ""
        var record: Record?
        if let match = result.content.shared, let engine = result.content.lists.first?.engine, !match.commonMatched.isEmpty {
            if let known = recent.first(where: { $0.engine === engine && ($0.match === match || ($0.match.commonMatched == match.commonMatched && $0.match.commonSurviving == match.commonSurviving)) }) {
                record = known
            } else {
                written += 1
                let (hidden, notifications) = Self.texts(of: match, engine)
                let new = Record(match: match, engine: engine, name: "s\(written)", texts: (Set(hidden), Set(notifications)))
                recent.append(new)
                if recent.count > 16 { recent.removeFirst() }
                record = new
                output += JSONValue.object([
                    ("shared", .string(new.name)),
                    ("matchedRules", .array(match.commonMatched.map { SimulationReport.json(engine.origin(of: $0)) })),
                    ("hiddenSelectors", .array(hidden.map(JSONValue.string))),
                    ("notifications", .array(notifications.map(JSONValue.string))),
                ]).serialized(pretty: false) + "\n"
            }
        }
        let own = record.map { result.content.own(beyond: $0.match, commonTexts: $0.texts, commonName: $0.name, memo: &ownTexts) }
        output += Self.json(result, trace: trace, shared: record?.name, own: own).serialized(pretty: false) + "\n"
        return output
    }

    /// The selectors and notifications of the common rules that survive, each once.
    private static func texts(of match: ContentRuleEngine.UniversalMatch, _ engine: ContentRuleEngine) -> (hidden: [String], notifications: [String]) {
        let surviving = match.commonSurviving
        return (unique(surviving.compactMap { engine.action(of: $0) == .cssDisplayNone ? engine.selector(of: $0) : nil }),
                unique(surviving.compactMap { engine.action(of: $0) == .notify ? engine.notification(of: $0) : nil }))
    }

    /// A request; with `shared`, its lists are `own`: what the shared record does not hold.
    static func json(_ result: RequestResult, trace: String, shared: String? = nil, own: (matched: [RuleOrigin], hidden: [String], notifications: [String])? = nil) -> JSONValue {
        let entry = result.entry
        var members: [(String, JSONValue)] = [
            ("trace", .string(trace)),
            ("line", .int(entry.line)),
            ("url", .string(entry.url.description)),
            ("type", .string(entry.typeName)),
            ("top", .string(result.topURL.description)),
            ("verdict", .string(result.verdict.rawValue)),
            ("expected", entry.expect.map { .string($0.rawValue) } ?? .null),
            ("pass", .bool(result.passed)),
            ("finalURL", .string(result.finalURL.requestString)),
            ("handedToSystem", .bool(result.decision.isHandedToSystem)),
            ("actions", .array(result.actions.map { .string($0.rawValue) })),
        ]
        if let message = entry.message {
            members += [("handler", .string(message.handler)), ("frame", .string(message.frame.rawValue)), ("world", .string(message.world.name))]
        }
        if let permission = entry.permission {
            members += [("permissions", .array(permission.kinds.map { .string($0.rawValue) })), ("frame", .string(permission.frame.rawValue))]
        }
        if let shared { members.append(("shared", .string(shared))) }
        members += [
            ("matchedRules", .array((own?.matched ?? result.matchedRules).map(SimulationReport.json))),
            ("decidedBy", result.decidedBy.map(SimulationReport.json) ?? .null),
            ("reason", .string(result.reason)),
            ("cookies", .array(result.cookies.map(JSONValue.string))),
            ("hiddenSelectors", .array((own?.hidden ?? result.hiddenSelectors).map(JSONValue.string))),
            ("notifications", .array((own?.notifications ?? result.notifications).map(JSONValue.string))),
        ]
        if !result.failures.isEmpty { members.append(("failures", .array(result.failures.map(JSONValue.string)))) }
        return .object(members)
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
