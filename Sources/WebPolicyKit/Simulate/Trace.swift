import Foundation

/// What a request's verdict can be, in the order the pipeline decides (docs/semantics.md).
public enum Verdict: String, CaseIterable, Sendable {
    case allow, block, upgrade, intercept
}

/// One request line of a trace (docs/trace-format.md).
public struct TraceEntry: Sendable {
    public enum Kind: String, Sendable {
        /// `page URL`: a top-level navigation that becomes the top document of later lines.
        case page
        /// A main-frame navigation that leaves the page as it is (`type=document`, a link to
        /// `mailto:`).
        case navigation
        /// A subresource or frame load.
        case resource
    }

    public var line: Int
    public var kind: Kind
    /// The type as written (`script`, `page`), or the default.
    public var typeName: String
    /// The concrete type content rules see.
    public var resourceType: ResourceType
    public var url: CanonicalURL
    public var urlRange: SourceRange
    public var top: CanonicalURL?
    public var frame: CanonicalURL?
    /// As written (`POST`); nil means GET.
    public var method: String?
    public var expect: Verdict?
    /// Where `expect=` is, for `--record` to rewrite it.
    public var expectRange: SourceRange?
    /// Expected cookie names; nil when the line does not say.
    public var cookies: [String]?
    /// Expected surviving WebKit actions (`actions=block-cookies,css-display-none`, `none`).
    public var actions: [ContentActionType]?
    /// The column just after the last field, where `--record` appends `expect=`.
    public var fieldsEnd: Int = 0
}

public struct Trace: Sendable {
    public var file: SourceFile
    /// The `policy:` header, resolved against the trace's folder, and where it is written.
    public var policyPath: String?
    public var policyRange: SourceRange?
    public var entries: [TraceEntry]
}

/// Parses trace format v1: `[TYPE] URL [key=value ...]` lines, `page URL`, a `policy:` header,
/// `#` comments. Every problem is reported, at its line and column.
public enum TraceParser {
    public struct Problem: Error, Sendable {
        public var message: String
        public var range: SourceRange
        public var hint: String?
    }

    /// Trace types: WebKit's concrete resource types; `page` for a top-level load that becomes
    /// the top document; `document` or `top-document` for a main-frame navigation that does not
    /// (a link to `mailto:`); `child-document` for an iframe.
    static let types: [String: (TraceEntry.Kind, ResourceType)] = {
        var types: [String: (TraceEntry.Kind, ResourceType)] = [
            "page": (.page, .topDocument),
            "document": (.navigation, .topDocument),
            "top-document": (.navigation, .topDocument),
            "child-document": (.resource, .childDocument),
        ]
        for type: ResourceType in [.image, .styleSheet, .script, .font, .svgDocument, .media, .popup, .ping, .fetch, .websocket, .other, .cspReport] {
            types[type.rawValue] = (.resource, type)
        }
        return types
    }()

    static let keys = ["type", "top", "frame", "method", "expect", "cookies", "actions"]

    public static func parse(_ file: SourceFile) -> (trace: Trace, problems: [Problem]) {
        var trace = Trace(file: file, entries: [])
        var problems: [Problem] = []
        for lineNumber in 1...max(file.lineCount, 1) {
            let fields = Self.fields(of: Substring(file.line(lineNumber)))
            guard let first = fields.first else { continue }
            func range(_ field: (text: String, column: Int), from offset: Int = 0) -> SourceRange {
                SourceRange(start: SourcePosition(line: lineNumber, column: field.column + offset),
                            end: SourcePosition(line: lineNumber, column: field.column + field.text.unicodeScalars.count))
            }
            if first.text == "policy:" || first.text.hasPrefix("policy:") {
                let value = first.text == "policy:" ? fields.dropFirst().first : (String(first.text.dropFirst("policy:".count)), first.column + 7)
                guard let value, fields.count <= (first.text == "policy:" ? 2 : 1) else {
                    problems.append(Problem(message: "a policy: header names one policy file", range: range(first)))
                    continue
                }
                if !trace.entries.isEmpty {
                    problems.append(Problem(message: "the policy: header must come before the first request", range: range(first)))
                } else if trace.policyPath != nil {
                    problems.append(Problem(message: "a second policy: header; a trace has one policy", range: range(first)))
                }
                let folder = (file.path as NSString).deletingLastPathComponent
                trace.policyPath = value.text.hasPrefix("/") || folder.isEmpty ? value.text : folder + "/" + value.text
                trace.policyRange = range(value)
                continue
            }
            var position = 0
            var kind = TraceEntry.Kind.resource
            var typeName = "other"
            var resourceType = ResourceType.other
            if let known = types[first.text] {
                (kind, resourceType) = known
                typeName = first.text
                position = 1
            } else if !first.text.contains(":") {
                let suggestion = Suggestions.closest(to: first.text, in: types.keys.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
                problems.append(Problem(message: "'\(first.text)' is neither a request type nor a URL\(suggestion)", range: range(first),
                                        hint: "types: \(types.keys.sorted().joined(separator: ", ")); a URL has a scheme, like https:"))
                continue
            }
            guard position < fields.count else {
                problems.append(Problem(message: "'\(first.text)' needs a URL after it", range: range(first)))
                continue
            }
            let urlField = fields[position]
            var entry: TraceEntry
            switch CanonicalURL.parse(urlField.text) {
            case .failure(let error):
                problems.append(Problem(message: "the URL '\(urlField.text)' does not parse: \(error.message)", range: range(urlField, from: error.offset)))
                continue
            case .success(let url):
                entry = TraceEntry(line: lineNumber, kind: kind, typeName: typeName, resourceType: resourceType, url: url,
                                   urlRange: range(urlField))
                entry.fieldsEnd = fields.last.map { $0.column + $0.text.unicodeScalars.count } ?? 1
            }
            var seen: [String] = []
            for field in fields[(position + 1)...] {
                guard let equals = field.text.firstIndex(of: "=") else {
                    problems.append(Problem(message: "'\(field.text)' is not key=value", range: range(field), hint: "keys: \(keys.joined(separator: ", "))"))
                    continue
                }
                let key = String(field.text[..<equals])
                let value = String(field.text[field.text.index(after: equals)...])
                let valueColumn = key.unicodeScalars.count + 1
                guard keys.contains(key) else {
                    let suggestion = Suggestions.closest(to: key, in: keys).map { " (did you mean '\($0)'?)" } ?? ""
                    problems.append(Problem(message: "unknown key '\(key)'\(suggestion)", range: range(field), hint: "keys: \(keys.joined(separator: ", "))"))
                    continue
                }
                guard !seen.contains(key) else {
                    problems.append(Problem(message: "'\(key)' is given twice", range: range(field)))
                    continue
                }
                seen.append(key)
                switch key {
                case "type":
                    guard position == 0, let known = types[value] else {
                        let message = position == 1 ? "the type is already '\(typeName)'" : "'\(value)' is not a request type"
                        problems.append(Problem(message: message, range: range(field, from: valueColumn), hint: "types: \(types.keys.sorted().joined(separator: ", "))"))
                        continue
                    }
                    (entry.kind, entry.resourceType) = known
                    entry.typeName = value
                case "top", "frame":
                    switch CanonicalURL.parse(value) {
                    case .failure(let error):
                        problems.append(Problem(message: "the \(key) URL '\(value)' does not parse: \(error.message)", range: range(field, from: valueColumn + error.offset)))
                    case .success(let url):
                        if key == "top" { entry.top = url } else { entry.frame = url }
                    }
                case "method":
                    guard !value.isEmpty, value.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else {
                        problems.append(Problem(message: "'\(value)' is not an HTTP method", range: range(field, from: valueColumn)))
                        continue
                    }
                    entry.method = value.uppercased()
                case "expect":
                    guard let verdict = Verdict(rawValue: value) else {
                        problems.append(Problem(message: "'\(value)' is not a verdict", range: range(field, from: valueColumn),
                                                hint: "expect one of \(Verdict.allCases.map(\.rawValue).joined(separator: ", "))"))
                        continue
                    }
                    entry.expect = verdict
                    entry.expectRange = range(field)
                case "actions":
                    var actions: [ContentActionType] = []
                    for name in value == "none" ? [] : value.split(separator: ",").map(String.init) {
                        guard let action = ContentActionType(rawValue: name), [.block, .blockCookies, .cssDisplayNone, .makeHTTPS, .notify].contains(action) else {
                            problems.append(Problem(message: "'\(name)' is not an action that survives to a load", range: range(field, from: valueColumn),
                                                    hint: "actions: block, block-cookies, css-display-none, make-https, notify, or none"))
                            continue
                        }
                        actions.append(action)
                    }
                    entry.actions = actions
                default:  // cookies
                    entry.cookies = value.isEmpty || value == "none" ? [] : value.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
                }
            }
            trace.entries.append(entry)
        }
        return (trace, problems)
    }

    /// A line's fields, separated by spaces or tabs, up to a `#` that starts a field (a
    /// comment), each with its column in scalars. Split on UTF-8 bytes: the separators are
    /// ASCII, and a column counts the bytes that start a scalar.
    static func fields(of line: Substring) -> [(text: String, column: Int)] {
        var line = line
        return line.withUTF8 { bytes in
            var fields: [(text: String, column: Int)] = []
            var index = 0
            var column = 1
            func advance() {
                if bytes[index] & 0xC0 != 0x80 { column += 1 }
                index += 1
            }
            while index < bytes.count {
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { advance() }
                guard index < bytes.count, bytes[index] != 0x23 else { break }
                let start = index, startColumn = column
                while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x09 { advance() }
                fields.append((String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self), startColumn))
            }
            return fields
        }
    }
}
