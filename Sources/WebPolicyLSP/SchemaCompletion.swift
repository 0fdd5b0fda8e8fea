import Foundation
import URLFilter
import WebPolicyKit
import WebPolicyRuntime

/// Completion and key hover from the policy's JSON Schema (`webpolicy schema`, the one the
/// loader's keys are tested against): the keys a mapping may hold where the cursor is, the
/// values an enumerated key takes, and a key's description. The place in the document is read
/// from the lines above the cursor (indentation and list dashes), so half-typed YAML, which
/// does not parse, completes all the same.
enum SchemaCompletion {
    /// The schema, parsed once. Read only after it is made (a dictionary of Foundation's
    /// values, which Swift cannot prove unshared).
    nonisolated(unsafe) static let schema: [String: Any] = {
        guard case .success(let node) = JSONDocument.parse(PolicySchema.text) else { return [:] }
        return plain(node) as? [String: Any] ?? [:]
    }()

    /// A parsed JSON value as Swift values: `true` stays a `Bool` (Foundation's reader gives
    /// an `NSNumber`, which a completion would write as `1`), whole numbers `Int`s.
    static func plain(_ node: JSONNode) -> Any {
        switch node.value {
        case .null: return NSNull()
        case .bool(let value): return value
        case .number(let value): return value.rounded() == value && abs(value) < 1e15 ? Int(value) as Any : value as Any
        case .string(let value): return value
        case .array(let items): return items.map(plain)
        case .object(let members): return Dictionary(members.map { ($0.key, plain($0.value)) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// What a line holds, as far as completion cares: its indent, whether it is a list item,
    /// and the key it sets (if any).
    struct Line {
        var indent: Int
        var key: String?
        var isItem: Bool
        /// The column (0-based, in characters) where the key or the item's content starts.
        var contentStart: Int
    }

    static func parse(_ text: Substring) -> Line? {
        let indent = text.prefix { $0 == " " }.count
        var rest = text.dropFirst(indent)
        guard !rest.isEmpty, !rest.hasPrefix("#") else { return nil }
        var isItem = false
        var start = indent
        if rest.hasPrefix("- ") || rest == "-" {
            isItem = true
            rest = rest.dropFirst(min(2, rest.count))
            let spaces = rest.prefix { $0 == " " }.count
            rest = rest.dropFirst(spaces)
            start += 2 + spaces
        }
        var key: String?
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains(" ") || rest.first == "\"" {
            let name = rest[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            if !name.isEmpty, !name.contains("{"), !name.contains("[") { key = name }
        }
        return Line(indent: indent, key: key, isItem: isItem, contentStart: start)
    }

    /// The keys from the document's root down to the mapping that holds the cursor's line,
    /// `[]` for an item of a list; read upwards from `line` (1-based), whose first `column - 1`
    /// characters come before the cursor.
    static func path(to line: Int, column: Int, in file: SourceFile) -> [String] {
        let current = String(String.UnicodeScalarView(file.line(line).prefix(max(column - 1, 0))))
        let here = parse(Substring(current))
        // The cursor's own mapping sits at the column where its key starts.
        var indent = here?.contentStart ?? current.count
        var path: [String] = []
        if let here, here.isItem {
            // `- ke|`: a key of the item's mapping, under the list above.
            path.append("[]")
            indent = here.indent
        }
        var number = line - 1
        while number >= 1, indent > 0 {
            let text = String(String.UnicodeScalarView(file.line(number)))
            guard let above = parse(Substring(text)) else { number -= 1; continue }
            if above.isItem, above.indent < indent, above.contentStart <= indent {
                // A key of a list item's mapping: the item, then the list's key above it.
                if above.contentStart < indent, let key = above.key { path.append(key) }
                path.append("[]")
                indent = above.indent
            } else if above.indent < indent, let key = above.key {
                path.append(key)
                indent = above.indent
            }
            number -= 1
        }
        return path.reversed()
    }

    /// The schema node `path` leads to (references followed; `[]` steps into a list's items).
    static func node(at path: [String]) -> [String: Any]? {
        var node: [String: Any]? = resolve(schema)
        for step in path {
            guard let current = node else { return nil }
            if step == "[]" {
                node = resolve(current["items"] as? [String: Any] ?? current)
            } else if let properties = current["properties"] as? [String: Any], let next = properties[step] as? [String: Any] {
                node = resolve(next)
            } else if let named = current["additionalProperties"] as? [String: Any] {
                // A mapping of names the policy chooses (a `runtime-hosts` role).
                node = resolve(named)
            } else {
                return nil
            }
        }
        return node
    }

    /// `node` with `$ref`s followed, and the branches of `oneOf`/`anyOf`/`allOf` that describe
    /// a mapping merged (their properties together).
    static func resolve(_ node: [String: Any]?) -> [String: Any]? {
        guard var node else { return nil }
        var seen = 0
        while let reference = node["$ref"] as? String, seen < 16, let target = lookUp(reference) {
            let description = node["description"]
            node = target.merging(node.filter { $0.key != "$ref" }) { _, own in own }
            if let description { node["description"] = description }
            seen += 1
        }
        for combinator in ["oneOf", "anyOf", "allOf"] {
            guard let branches = node[combinator] as? [[String: Any]] else { continue }
            var properties = node["properties"] as? [String: Any] ?? [:]
            var values = node["enum"] as? [Any] ?? []
            for branch in branches.compactMap(resolve) {
                properties.merge(branch["properties"] as? [String: Any] ?? [:]) { first, _ in first }
                values += branch["enum"] as? [Any] ?? []
                if node["items"] == nil, let items = branch["items"] { node["items"] = items }
            }
            if !properties.isEmpty { node["properties"] = properties }
            if !values.isEmpty { node["enum"] = values }
        }
        return node
    }

    private static func lookUp(_ reference: String) -> [String: Any]? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: Any? = schema
        for part in reference.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(part)] }
        return node as? [String: Any]
    }

    /// The completion items at a place: the keys of the mapping being written (those not yet
    /// set in it), or after `key:` the values the key takes. Each replaces the word typed so
    /// far (`app-` → `app-bound-domains: `), hyphens and all: an editor that splits words at
    /// `-` would otherwise insert after the hyphen.
    static func items(line: Int, column: Int, in file: SourceFile, encoding: PositionEncoding) -> [JSONValue] {
        let scalars = Array(file.line(line).prefix(max(column - 1, 0)))
        let before = String(String.UnicodeScalarView(scalars))
        let start = WordAtCursor.schema.start(in: scalars, endingAt: scalars.count)
        let typed = JSONValue.object([
            ("start", .object([("line", .int(line - 1)), ("character", .int(encoding.character(of: SourcePosition(line: line, column: start + 1), in: file)))])),
            ("end", .object([("line", .int(line - 1)), ("character", .int(encoding.character(of: SourcePosition(line: line, column: column), in: file)))])),
        ])
        func item(_ label: String, kind: Int, insert: String, documentation: String? = nil) -> JSONValue {
            var members: [(String, JSONValue)] = [("label", .string(label)), ("kind", .int(kind)), ("insertText", .string(insert)),
                                                  ("textEdit", .object([("range", typed), ("newText", .string(insert))]))]
            if let documentation { members.append(("documentation", .object([("kind", .string("markdown")), ("value", .string(documentation))]))) }
            return .object(members)
        }
        let parsed = parse(Substring(before))
        if let parsed, let key = parsed.key, let colon = before.firstIndex(of: ":"), before.index(after: colon) <= before.endIndex {
            // After `key:`: its values.
            let path = self.path(to: line, column: parsed.contentStart + 1, in: file) + [key]
            guard let node = node(at: path) else { return [] }
            let listed = resolve(node["items"] as? [String: Any])
            var values = (node["enum"] as? [Any]) ?? (listed?["enum"] as? [Any]) ?? node["const"].map { [$0] } ?? []
            if values.isEmpty, node["type"] as? String == "boolean" { values = [true, false] }
            let afterColon = before[before.index(after: colon)...]
            let inFlowList = afterColon.contains("[")
            // A list's value goes in brackets when none is open; one already in it is not
            // offered again.
            let written = Set(afterColon.split { "[], ".contains($0) }.map(String.init))
            return values.map { "\($0)" }.filter { !inFlowList || !written.contains($0) }.map { text in
                item(text, kind: 12, insert: listed != nil && node["enum"] == nil && !inFlowList ? "[\(text)]" : text)  // 12: Value
            }
        }
        let path = self.path(to: line, column: column, in: file)
        if let parsed, parsed.isItem, parsed.key == nil, let values = resolve(node(at: path))?["enum"] as? [Any] {
            // `- ` in a block list of values (`resource-type:` then `  - scr`).
            return values.map { "\($0)" }.map { item($0, kind: 12, insert: $0) }
        }
        guard let properties = node(at: path)?["properties"] as? [String: Any] else { return [] }
        let present = siblings(of: line, column: column, in: file)
        // A content rule's action takes its own parameters only: a block rule is not offered
        // `selector` (lint would say conflicting-keys).
        let action = path == ["content-rules", "[]"] ? present["action"].flatMap(ContentActionType.init(rawValue:)) : nil
        let othersParameters = Set(PolicyKeys.actionParameters.filter { action != nil && $0.action != action }.map(\.key))
        return properties.keys.sorted().filter { present[$0] == nil && !othersParameters.contains($0) }.map { key in
            let property = resolve(properties[key] as? [String: Any])
            // A key with one value (`webpolicy: 1`) is written with it.
            let value = property?["const"].map { " \($0)" } ?? ""
            return item(key, kind: 10, insert: key + ":" + (value.isEmpty ? " " : value), documentation: property?["description"] as? String)  // 10: Property
        }
    }

    /// The keys already set in the mapping the cursor's line belongs to (a key is written
    /// once), with the value written after each on its line (`action: block` → `block`).
    static func siblings(of line: Int, column: Int, in file: SourceFile) -> [String: String] {
        let current = String(String.UnicodeScalarView(file.line(line).prefix(max(column - 1, 0))))
        let here = parse(Substring(current))
        let indent = here?.contentStart ?? current.count
        var keys: [String: String] = [:]
        func read(_ number: Int) -> (line: Line, value: String)? {
            let text = String(String.UnicodeScalarView(file.line(number)))
            guard let parsed = parse(Substring(text)) else { return nil }
            var value = ""
            if parsed.key != nil, let colon = text.dropFirst(parsed.contentStart).firstIndex(of: ":") {
                let rest = text[text.index(after: colon)...]
                value = String(rest.components(separatedBy: " #").first ?? "").trimmingCharacters(in: CharacterSet(charactersIn: " \t\"'"))
            }
            return (parsed, value)
        }
        let blank = (line: Line(indent: .max, key: nil, isItem: false, contentStart: .max), value: "")
        // Upwards to the line that opens the mapping (a list item's dash at this indent, or a
        // line less indented); not from a new item's line, whose mapping starts there.
        if here?.isItem != true {
            var number = line - 1
            while number >= 1 {
                let (other, value) = read(number) ?? blank
                if other.contentStart < indent { break }
                if other.contentStart == indent, let key = other.key { keys[key] = value }
                if other.isItem && other.contentStart == indent { break }
                number -= 1
            }
        }
        // Downwards to the next item or a line less indented.
        var number = line + 1
        while number <= file.lineCount {
            let (other, value) = read(number) ?? blank
            if other.contentStart < indent || other.isItem && other.indent < indent { break }
            if other.contentStart == indent, let key = other.key { keys[key] = value }
            number += 1
        }
        return keys
    }

    /// The description of the key written at `position` (1-based), with its place in the
    /// policy (`navigation.pages`).
    static func keyHover(at position: SourcePosition, in file: SourceFile) -> String? {
        let text = String(String.UnicodeScalarView(file.line(position.line)))
        guard let parsed = parse(Substring(text)), let key = parsed.key else { return nil }
        let start = parsed.contentStart, end = start + key.count + (text.dropFirst(start).hasPrefix("\"") ? 2 : 0)
        guard position.column - 1 >= start, position.column - 1 < end else { return nil }
        let path = self.path(to: position.line, column: start + 1, in: file) + [key]
        guard let description = node(at: path)?["description"] as? String else { return nil }
        let since = FeatureHover.key(key, path: path).map { "\n\n" + $0 } ?? ""
        return "**\(path.filter { $0 != "[]" }.joined(separator: "."))**\n\n\(description)\(since)"
    }
}
