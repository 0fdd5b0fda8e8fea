import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// Completion of the names a policy declares itself, which no schema can list: a role of
/// `runtime-hosts` wherever a host pattern goes (`"${server}"`), a scheme the app serves
/// (`interception`) where `navigation.pages` names the app's own pages, a content world other
/// bridges already use. Read from the policy as its last lint loaded it (includes merged), so
/// a role declared in an included file completes too.
enum PolicyNames {
    static func items(line: Int, column: Int, in file: SourceFile, policy: Policy, encoding: PositionEncoding) -> [JSONValue] {
        let scalars = Array(file.line(line))
        let before = Array(scalars.prefix(max(column - 1, 0)))
        let after = Array(scalars.dropFirst(max(column - 1, 0)))
        let text = String(String.UnicodeScalarView(before))
        guard let parsed = SchemaCompletion.parse(Substring(text)) else { return [] }
        let path = SchemaCompletion.path(to: line, column: parsed.contentStart + 1, in: file)
        let place = path + (parsed.key.map { [$0] } ?? [])
        var items: [JSONValue] = []
        let hostPlace = SchemaCompletion.node(at: place)
        if acceptsRole(hostPlace) || (parsed.isItem && parsed.key == nil && acceptsRole(SchemaCompletion.node(at: path))) {
            // A list's place with no `[` open yet takes the role in brackets.
            let bracket = parsed.key != nil && isList(hostPlace) && !text.contains("[")
            items += roleItems(policy, before: before, after: after, line: line, column: column, bracket: bracket, in: file, encoding: encoding)
        }
        let served = Set(policy.interception.map { $0.scheme.value.lowercased() }).subtracting(["http", "https"]).sorted()
        switch place.filter({ $0 != "[]" }) {
        case ["navigation", "pages", "scheme"], ["navigation", "frames", "scheme"]:
            items += served.map { item($0, kind: 12, detail: "a scheme the app serves (interception)") }
        case ["bridges", "schemes"]:
            // The frames' schemes: the web's, and the app's own pages'.
            let written = Set(text.split { "[], :".contains($0) }.map(String.init))
            items += (["https", "http"] + served).filter { !written.contains($0) }.map { item($0, kind: 12, detail: $0.hasPrefix("http") ? "web frames" : "a scheme the app serves (interception)") }
        case ["bridges", "world"]:
            // Not the word being typed, which the last lint read as a world of its own.
            let typed = text.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            let used = Set(policy.bridges.compactMap { $0.world?.value }).subtracting(["page", "client", typed])
            items += [item("page", kind: 12, detail: "the page's own scripts (WKContentWorld.page, the default)"),
                      item("client", kind: 12, detail: "the app's user scripts (WKContentWorld.defaultClient)")]
                + used.sorted().map { item($0, kind: 12, detail: "a content world another bridge uses") }
        default:
            break
        }
        return items
    }

    /// Each role as what finishes the value typed so far into `"${role}"` — whatever of it is
    /// typed (`"`, `"$`, `"${se`) kept, a closing `}` or quote already after the cursor (an
    /// editor's auto-pair) taken in. The edit starts where the word being typed does, as
    /// editors that ignore an edit's range insert from there.
    static func roleItems(_ policy: Policy, before: [Unicode.Scalar], after: [Unicode.Scalar], line: Int, column: Int, bracket: Bool,
                          in file: SourceFile, encoding: PositionEncoding) -> [JSONValue] {
        // The value typed so far: back to a blank, `[` or `,`.
        var tokenStart = before.count
        while tokenStart > 0, !" \t[,".unicodeScalars.contains(before[tokenStart - 1]) { tokenStart -= 1 }
        let wordStart = WordAtCursor.role.start(in: before, endingAt: before.count)
        let typed = String(String.UnicodeScalarView(before[tokenStart..<wordStart]))
        let word = String(String.UnicodeScalarView(before[wordStart...]))
        let quote = typed.hasPrefix("'") ? "'" : "\""
        var closing = 0
        if after.first == "}" { closing += 1 }
        if after.dropFirst(closing).first.map({ String($0) == quote }) ?? false { closing += 1 }
        func position(_ scalarColumn: Int) -> JSONValue {
            .object([("line", .int(line - 1)), ("character", .int(encoding.character(of: SourcePosition(line: line, column: scalarColumn), in: file)))])
        }
        let range = JSONValue.object([("start", position(wordStart + 1)), ("end", position(column + closing))])
        return roles(policy).compactMap { role, description in
            let whole = (bracket ? "[" : "") + quote + "${" + role + "}" + quote + (bracket ? "]" : "")
            // What is typed must be the start of the value, and the word the start of the role.
            let rest = String(whole.dropFirst(typed.count))
            guard whole.hasPrefix(typed), rest.hasPrefix(word) else { return nil }
            return item(whole, kind: 6, detail: description, insert: rest, edit: (range, rest), filter: rest)
        }
    }

    static func isList(_ node: [String: Any]?) -> Bool {
        guard let node else { return false }
        if node["type"] as? String == "array" { return true }
        for combinator in ["oneOf", "anyOf"] {
            for branch in node[combinator] as? [[String: Any]] ?? [] where SchemaCompletion.resolve(branch)?["type"] as? String == "array" { return true }
        }
        return false
    }

    /// The roles `runtime-hosts` declares, with what each stands for.
    static func roles(_ policy: Policy) -> [(String, String)] {
        policy.runtimeHosts.map { ($0.name.value, $0.description?.value ?? "a server the app binds at run time") }
    }

    /// Whether a schema node takes a host pattern that may name a role (its pattern admits
    /// `${…}`), itself or as its list's items, in any of its branches.
    static func acceptsRole(_ node: [String: Any]?) -> Bool {
        guard let node else { return false }
        if let pattern = node["pattern"] as? String, pattern.contains("\\$\\{") { return true }
        if let items = node["items"] as? [String: Any], acceptsRole(SchemaCompletion.resolve(items)) { return true }
        for combinator in ["oneOf", "anyOf", "allOf"] {
            for branch in node[combinator] as? [[String: Any]] ?? [] where acceptsRole(SchemaCompletion.resolve(branch)) { return true }
        }
        return false
    }

    private static func item(_ label: String, kind: Int, detail: String, insert: String? = nil, edit: (range: JSONValue, text: String)? = nil, filter: String? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("label", .string(label)), ("kind", .int(kind)), ("detail", .string(detail))]
        if let insert { members.append(("insertText", .string(insert))) }
        if let edit { members.append(("textEdit", .object([("range", edit.range), ("newText", .string(edit.text))]))) }
        if let filter { members.append(("filterText", .string(filter))) }
        return .object(members)
    }
}
