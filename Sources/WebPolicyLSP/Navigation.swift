import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// Where a policy points, for the editor: its `include:` paths and `content-rule-lists` files
/// as links (and the definitions behind them), its sections and named rules as symbols.
enum Navigation {
    /// A file a policy names, where the name is written and the file it resolves to.
    struct Reference {
        var written: LocatedString
        var target: String
    }

    /// The files `document` names: includes, then content-rule lists, in the order written.
    static func references(in document: PolicyDocument) -> [Reference] {
        let written = document.includes + document.contentRuleLists.map(\.path)
        // Resolved as the loader resolves them: relative to the file that names them.
        return written.map { Reference(written: $0, target: PathNormalizer.resolve($0.value, relativeTo: document.file.path)) }
    }

    static func documentLinks(_ references: [Reference], in file: SourceFile, encoding: PositionEncoding) -> [JSONValue] {
        references.map { reference in
            .object([
                ("range", LSPDiagnostic.range(reference.written.location.range, in: file, encoding: encoding)),
                ("target", .string(DocumentStore.uri(ofPath: reference.target))),
            ])
        }
    }

    /// The file named at `position` (1-based), if a reference is written there.
    static func definition(at position: SourcePosition, _ references: [Reference]) -> JSONValue? {
        // A file that is not there has no definition: opening it would make an empty buffer.
        guard let reference = references.first(where: { contains($0.written.location.range, position) }),
              FileManager.default.fileExists(atPath: reference.target) else { return nil }
        let start = JSONValue.object([("line", .int(0)), ("character", .int(0))])
        return .object([("uri", .string(DocumentStore.uri(ofPath: reference.target))), ("range", .object([("start", start), ("end", start)]))])
    }

    static func contains(_ range: SourceRange, _ position: SourcePosition) -> Bool {
        range.start <= position && (position < range.end || (range.start == range.end && position == range.start))
    }

    /// The policy's top-level keys as symbols, each spanning its lines; a content rule's `id`
    /// inside `content-rules`. Read from the text's lines, so a policy that does not parse
    /// still has its outline.
    static func symbols(in file: SourceFile, rules: [ContentRule], encoding: PositionEncoding) -> [JSONValue] {
        var tops: [(name: String, line: Int)] = []
        for number in 1...max(file.lineCount, 1) {
            let line = String(String.UnicodeScalarView(file.line(number)))
            guard let first = line.unicodeScalars.first, first != " ", first != "\t", first != "#", first != "-",
                  let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            if !key.isEmpty, !key.contains(" ") { tops.append((key, number)) }
        }
        return tops.enumerated().map { index, top in
            var last = index + 1 < tops.count ? tops[index + 1].line - 1 : max(file.lineCount, 1)
            while last > top.line, file.line(last).allSatisfy({ $0 == " " || $0 == "\t" }) { last -= 1 }
            let whole = SourceRange(start: SourcePosition(line: top.line, column: 1), end: SourcePosition(line: last, column: file.line(last).count + 1))
            let name = SourceRange(start: SourcePosition(line: top.line, column: 1), end: SourcePosition(line: top.line, column: top.name.unicodeScalars.count + 1))
            var members: [(String, JSONValue)] = [
                ("name", .string(top.name)),
                // LSP SymbolKind: 2 Module for a section, 14 Constant for a scalar setting.
                ("kind", .int(last > top.line ? 2 : 14)),
                ("range", LSPDiagnostic.range(whole, in: file, encoding: encoding)),
                ("selectionRange", LSPDiagnostic.range(name, in: file, encoding: encoding)),
            ]
            if top.name == "content-rules" {
                let children = rules.compactMap { rule -> JSONValue? in
                    guard let id = rule.id, id.location.path == file.path else { return nil }
                    let range = LSPDiagnostic.range(id.location.range, in: file, encoding: encoding)
                    // 23 Struct: a rule.
                    return .object([("name", .string(id.value)), ("kind", .int(23)), ("range", range), ("selectionRange", range)])
                }
                if !children.isEmpty { members.append(("children", .array(children))) }
            }
            return .object(members)
        }
    }
}
