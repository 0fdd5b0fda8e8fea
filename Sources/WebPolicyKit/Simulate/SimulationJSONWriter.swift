/// `simulate --format json`: JSON Lines written as results are decided (docs/trace-format.md).
///
/// A real blocklist applies hundreds of universal rules (`css-display-none` on every page)
/// to every request; repeating them on each line made 20,000 requests 4.7 GB. They are written
/// once per page instead, as a `shared` record, and each request that they all act on names
/// the record (`"shared": "s1"`) and lists only its own matched rules, hidden selectors and
/// notifications. The output stays proportional to what differs per request.
public struct SimulationJSONWriter {
    /// Records written lately, by the object they stand for; pages come and go, so a few are
    /// enough (a record that was forgotten is written again under a new name).
    private var recent: [(match: ObjectIdentifier, name: String)] = []
    private var written = 0

    public init() {}

    /// The lines for one result: its shared record first when it is new, then the request.
    public mutating func lines(for result: RequestResult, trace: String) -> String {
        var output = ""
        var shared: (name: String, match: ContentRuleEngine.UniversalMatch, engine: ContentRuleEngine)?
        if let match = result.content.shared, let engine = result.content.lists.first?.engine, !match.matched.isEmpty {
            let id = ObjectIdentifier(match)
            if let known = recent.first(where: { $0.match == id }) {
                shared = (known.name, match, engine)
            } else {
                written += 1
                let name = "s\(written)"
                recent.append((id, name))
                if recent.count > 8 { recent.removeFirst() }
                shared = (name, match, engine)
                output += Self.record(name, match, engine, top: result.topURL.description).serialized(pretty: false) + "\n"
            }
        }
        output += Self.json(result, trace: trace, shared: shared.map { ($0.name, $0.match, $0.engine) }).serialized(pretty: false) + "\n"
        return output
    }

    /// The universal rules of a page that act on a kind of load.
    static func record(_ name: String, _ match: ContentRuleEngine.UniversalMatch, _ engine: ContentRuleEngine, top: String) -> JSONValue {
        let (hidden, notifications) = texts(of: match, engine)
        return .object([
            ("shared", .string(name)),
            ("top", .string(top)),
            ("matchedRules", .array(match.matched.map { SimulationReport.json(engine.origin(of: $0)) })),
            ("hiddenSelectors", .array(hidden.map(JSONValue.string))),
            ("notifications", .array(notifications.map(JSONValue.string))),
        ])
    }

    /// The selectors and notifications of a shared match's surviving rules, each once.
    private static func texts(of match: ContentRuleEngine.UniversalMatch, _ engine: ContentRuleEngine) -> (hidden: [String], notifications: [String]) {
        let surviving = match.surviving
        return (unique(surviving.compactMap { engine.action(of: $0) == .cssDisplayNone ? engine.selector(of: $0) : nil }),
                unique(surviving.compactMap { engine.action(of: $0) == .notify ? engine.notification(of: $0) : nil }))
    }

    /// A request; with `shared`, its lists leave out what the shared record holds.
    static func json(_ result: RequestResult, trace: String, shared: (name: String, match: ContentRuleEngine.UniversalMatch, engine: ContentRuleEngine)? = nil) -> JSONValue {
        let entry = result.entry
        var matched = result.matchedRules
        var hidden = result.hiddenSelectors
        var notifications = result.notifications
        if let shared {
            let sharedOrigins = Set(shared.match.matched.map { ObjectIdentifier(shared.engine.origin(of: $0)) })
            matched.removeAll { sharedOrigins.contains(ObjectIdentifier($0)) }
            let texts = texts(of: shared.match, shared.engine)
            let sharedSelectors = Set(texts.hidden), sharedNotifications = Set(texts.notifications)
            hidden.removeAll { sharedSelectors.contains($0) }
            notifications.removeAll { sharedNotifications.contains($0) }
        }
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
            ("actions", .array(result.actions.map { .string($0.rawValue) })),
        ]
        if let shared { members.append(("shared", .string(shared.name))) }
        members += [
            ("matchedRules", .array(matched.map(SimulationReport.json))),
            ("decidedBy", result.decidedBy.map(SimulationReport.json) ?? .null),
            ("reason", .string(result.reason)),
            ("cookies", .array(result.cookies.map(JSONValue.string))),
            ("hiddenSelectors", .array(hidden.map(JSONValue.string))),
            ("notifications", .array(notifications.map(JSONValue.string))),
        ]
        if !result.failures.isEmpty { members.append(("failures", .array(result.failures.map(JSONValue.string)))) }
        return .object(members)
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
