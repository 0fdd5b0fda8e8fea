import WebPolicyKit
import WebPolicyRuntime

/// Completion of the names a policy declares itself, which no schema can list: a role of
/// `runtime-hosts` wherever a host pattern goes (`"${server}"`), a scheme the app serves
/// (`interception`) where `navigation.pages` names the app's own pages, a content world other
/// bridges already use. Read from the policy as its last lint loaded it (includes merged), so
/// a role declared in an included file completes too.
enum PolicyNames {
    static func items(line: Int, column: Int, in file: SourceFile, policy: Policy, encoding: PositionEncoding) -> [JSONValue] {
        let before = Array(file.line(line).prefix(max(column - 1, 0)))
        let text = String(String.UnicodeScalarView(before))
        // `${` typed: the roles, each finishing what is typed (`${se` → `${server}`).
        if let dollar = roleStart(in: before) {
            let typedStart = dollar + 2
            let range = JSONValue.object([
                ("start", .object([("line", .int(line - 1)), ("character", .int(encoding.character(of: SourcePosition(line: line, column: typedStart + 1), in: file)))])),
                ("end", .object([("line", .int(line - 1)), ("character", .int(encoding.character(of: SourcePosition(line: line, column: column), in: file)))])),
            ])
            return roles(policy).map { role, description in
                item("${\(role)}", kind: 6, detail: description, edit: (range, role + "}"), filter: role)
            }
        }
        guard let parsed = SchemaCompletion.parse(Substring(text)) else { return [] }
        let path = SchemaCompletion.path(to: line, column: parsed.contentStart + 1, in: file)
        let place = path + (parsed.key.map { [$0] } ?? [])
        var items: [JSONValue] = []
        if acceptsRole(SchemaCompletion.node(at: place)) || (parsed.isItem && parsed.key == nil && acceptsRole(SchemaCompletion.node(at: path))) {
            // A host pattern's place: each role, quoted (`{` opens a flow mapping unquoted).
            let quoted = text.last == "\"" || text.last == "'"
            items += roles(policy).map { role, description in
                item("\"${\(role)}\"", kind: 6, detail: description, insert: quoted ? "${\(role)}" : "\"${\(role)}\"", filter: "${\(role)}")
            }
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
            let used = Set(policy.bridges.compactMap { $0.world?.value }).subtracting(["page", "client"])
            items += [item("page", kind: 12, detail: "the page's own scripts (WKContentWorld.page, the default)"),
                      item("client", kind: 12, detail: "the app's user scripts (WKContentWorld.defaultClient)")]
                + used.sorted().map { item($0, kind: 12, detail: "a content world another bridge uses") }
        default:
            break
        }
        return items
    }

    /// The roles `runtime-hosts` declares, with what each stands for.
    static func roles(_ policy: Policy) -> [(String, String)] {
        policy.runtimeHosts.map { ($0.name.value, $0.description?.value ?? "a server the app binds at run time") }
    }

    /// Where `${` starts when the text before the cursor ends inside an unclosed `${name`.
    static func roleStart(in before: [Unicode.Scalar]) -> Int? {
        var index = before.count - 1
        while index >= 0, before[index].properties.isAlphabetic || ("0"..."9").contains(before[index]) || before[index] == "_" || before[index] == "-" { index -= 1 }
        guard index >= 1, before[index] == "{", before[index - 1] == "$" else { return nil }
        return index - 1
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
