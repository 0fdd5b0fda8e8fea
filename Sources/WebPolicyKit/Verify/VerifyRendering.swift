import WebPolicyRuntime

/// How `webpolicy verify` shows its verdicts: `human`, or `json` with one object per list
/// and line.
public enum VerifyFormat: String, CaseIterable, Sendable {
    case human, json
}

extension Verifier {
    /// The entries in `format`: a pure function of them.
    public static func rendered(_ entries: [Entry], _ format: VerifyFormat) -> String {
        switch format {
        case .human: return human(entries)
        case .json: return json(entries)
        }
    }

    private static func verdict(_ error: String?) -> String { error.map { "refuses it: \"\($0)\"" } ?? "compiles it" }

    private static func human(_ entries: [Verifier.Entry]) -> String {
        var output = ""
        for entry in entries {
            output += "\(entry.input) -> \(entry.list) (\(entry.rules) rule\(entry.rules == 1 ? "" : "s"))\n"
            let lint = entry.lintErrors.map { $0 == 0 ? "lint finds no error; " : "lint finds \($0) error\($0 == 1 ? "" : "s"); " } ?? ""
            output += "  webpolicy: \(lint)its WebKit parser \(verdict(entry.webpolicy))\n"
            output += "  WebKit:    \(verdict(entry.webKit))\(entry.agree ? "" : "   <- DISAGREE")\n"
        }
        let disagreements = entries.filter { !$0.agree }.count
        output += "\(entries.count) list\(entries.count == 1 ? "" : "s"), \(entries.filter { $0.webKit == nil }.count) compiled by WebKit, \(disagreements) disagreement\(disagreements == 1 ? "" : "s")\n"
        return output
    }

    private static func json(_ entries: [Verifier.Entry]) -> String {
        entries.map { entry in
            JSONValue.object([
                ("input", .string(entry.input)), ("list", .string(entry.list)), ("rules", .int(entry.rules)),
                ("lintErrors", entry.lintErrors.map(JSONValue.int) ?? .null),
                ("webpolicy", entry.webpolicy.map(JSONValue.string) ?? .null),
                ("webkit", entry.webKit.map(JSONValue.string) ?? .null),
                ("agree", .bool(entry.agree)),
            ]).serialized(pretty: false) + "\n"
        }.joined()
    }
}
