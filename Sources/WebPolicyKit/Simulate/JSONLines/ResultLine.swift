import URLFilter
import WebPolicyRuntime

/// One request's JSON line (docs/trace-format.md lists the members) written as bytes, on the
/// core that decided it: every member but two that only the order of the whole run can give —
/// `trace`, the line's first, and `shared`, the name of the shared record it takes its common
/// rules from (`SimulationJSONWriter` puts both in). Building a `JSONValue` tree for each line
/// and serializing it on the thread that writes the output was a quarter of `--format json`'s
/// time, and all of it on one core.
enum ResultLine {
    /// What a request adds to its shared record: its own matched rules, hidden selectors and
    /// notifications (`ContentMatches.own`).
    struct Own {
        var matched: [RuleOrigin]
        var hidden: [ContentMatches.OwnText]
        var notifications: [ContentMatches.OwnText]
        /// Whose string table the numbered texts are in.
        var engine: ContentRuleEngine
    }

    /// Appends the line's members from `line` to its end and newline; with `own`, its lists
    /// are those and `shared` goes where the returned offset of `output` says.
    static func write(_ result: RequestResult, own: Own?, into output: inout [UInt8]) -> Int {
        let entry = result.entry
        key("line", &output)
        JSONStringBytes.append(entry.line, to: &output)
        output.append(0x2C)
        string("url", entry.url.description, &output)
        string("type", entry.typeName, &output)
        string("top", result.topURL.description, &output)
        string("verdict", result.verdict.rawValue, &output)
        key("expected", &output)
        if let expected = entry.expect { JSONStringBytes.append(quoting: expected.rawValue, to: &output) } else { output.append(contentsOf: "null".utf8) }
        output.append(0x2C)
        bool("pass", result.passed, &output)
        string("finalURL", result.finalURL.requestString, &output)
        bool("handedToSystem", result.decision.isHandedToSystem, &output)
        strings("actions", result.actions.map(\.rawValue), &output)
        if let message = entry.message {
            string("handler", message.handler, &output)
            string("frame", message.frame.rawValue, &output)
            string("world", message.world.name, &output)
        }
        if let permission = entry.permission {
            strings("permissions", permission.kinds.map(\.rawValue), &output)
            string("frame", permission.frame.rawValue, &output)
        }
        let shared = output.count
        key("matchedRules", &output)
        origins(own?.matched ?? result.matchedRules, &output)
        key("decidedBy", &output)
        if let decidedBy = result.decidedBy { origin(decidedBy, &output) } else { output.append(contentsOf: "null".utf8) }
        output.append(0x2C)
        string("reason", result.reason, &output)
        strings("cookies", result.cookies, &output)
        if let own {
            texts("hiddenSelectors", own.hidden, of: own.engine, &output)
            texts("notifications", own.notifications, of: own.engine, &output)
        } else {
            strings("hiddenSelectors", result.hiddenSelectors, &output)
            strings("notifications", result.notifications, &output)
        }
        if !result.failures.isEmpty { strings("failures", result.failures, &output) }
        // The last member written left its comma: the object ends there.
        output[output.count - 1] = 0x7D
        output.append(0x0A)
        return shared
    }

    /// `"name":`: the members of a line have plain names, written without escapes.
    static func key(_ name: StaticString, _ output: inout [UInt8]) {
        output.append(0x22)
        name.withUTF8Buffer { output.append(contentsOf: $0) }
        output.append(contentsOf: [0x22, 0x3A])
    }

    private static func string(_ name: StaticString, _ value: String, _ output: inout [UInt8]) {
        key(name, &output)
        JSONStringBytes.append(quoting: value, to: &output)
        output.append(0x2C)
    }

    private static func bool(_ name: StaticString, _ value: Bool, _ output: inout [UInt8]) {
        key(name, &output)
        output.append(contentsOf: (value ? "true," : "false,").utf8)
    }

    private static func strings(_ name: StaticString, _ values: [String], _ output: inout [UInt8]) {
        key(name, &output)
        output.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { output.append(0x2C) }
            JSONStringBytes.append(quoting: value, to: &output)
        }
        output.append(contentsOf: [0x5D, 0x2C])
    }

    private static func texts(_ name: StaticString, _ values: [ContentMatches.OwnText], of engine: ContentRuleEngine, _ output: inout [UInt8]) {
        key(name, &output)
        output.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { output.append(0x2C) }
            switch value {
            case .numbered(let number): engine.appendQuotedText(number, to: &output)
            case .text(let text): JSONStringBytes.append(quoting: text, to: &output)
            }
        }
        output.append(contentsOf: [0x5D, 0x2C])
    }

    private static func origins(_ values: [RuleOrigin], _ output: inout [UInt8]) {
        output.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { output.append(0x2C) }
            origin(value, &output)
        }
        output.append(contentsOf: [0x5D, 0x2C])
    }

    /// A rule's origin — `{"id", "file", "line", "rule", "expansion"}`, the last four when
    /// known — for a request line and a shared record alike.
    static func origin(_ origin: RuleOrigin, _ output: inout [UInt8]) {
        output.append(0x7B)
        key("id", &output)
        if let id = origin.id { JSONStringBytes.append(quoting: id, to: &output) } else { output.append(contentsOf: "null".utf8) }
        if let location = origin.location {
            output.append(0x2C)
            key("file", &output)
            JSONStringBytes.append(quoting: location.path, to: &output)
            output.append(0x2C)
            key("line", &output)
            JSONStringBytes.append(location.range.start.line, to: &output)
        }
        if origin.index >= 0 {
            output.append(0x2C)
            key("rule", &output)
            JSONStringBytes.append(origin.index, to: &output)
        }
        if let expansion = origin.expansion {
            output.append(0x2C)
            key("expansion", &output)
            JSONStringBytes.append(quoting: expansion, to: &output)
        }
        output.append(0x7D)
    }
}
