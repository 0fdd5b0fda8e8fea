import WebPolicyKit
import WebPolicyRuntime

/// A finding as an LSP `Diagnostic`: the rule id as its code (with a link to the rule's page),
/// `lint`'s severity, message and range, its notes as related information. The hint, which
/// LSP has no field for, goes in `data` beside the fix for the code actions that offer it.
enum LSPDiagnostic {
    static func encode(_ diagnostic: Diagnostic, in file: SourceFile?, encoding: PositionEncoding) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("range", range(diagnostic.location.range, in: file, encoding: encoding)),
            ("severity", .int(severity(diagnostic.severity))),
            ("code", .string(diagnostic.ruleID)),
            ("source", .string("webpolicy")),
            ("message", .string(diagnostic.message)),
        ]
        let here = diagnostic.location
        // The hint and the notes without a place of their own are said at the finding: LSP has
        // no field for them, and an editor that shows related information shows these too.
        let notes = diagnostic.notes.map { ($0.message, $0.location ?? here) } + (diagnostic.hint.map { [("hint: " + $0, here)] } ?? [])
        let related = notes.map { message, location -> JSONValue in
            // A note in the same file is placed with this file's lines; another file's note
            // by its columns (UTF-32 and UTF-16 agree on most policies' text).
            let noteFile = location.path == file?.path ? file : nil
            return .object([
                ("location", .object([("uri", .string(DocumentStore.uri(ofPath: location.path))), ("range", range(location.range, in: noteFile, encoding: encoding))])),
                ("message", .string(message)),
            ])
        }
        if !related.isEmpty { members.append(("relatedInformation", .array(related))) }
        var data: [(String, JSONValue)] = []
        if let hint = diagnostic.hint { data.append(("hint", .string(hint))) }
        if !data.isEmpty { members.append(("data", .object(data))) }
        return .object(members)
    }

    static func range(_ range: SourceRange, in file: SourceFile?, encoding: PositionEncoding) -> JSONValue {
        .object([("start", position(range.start, in: file, encoding: encoding)), ("end", position(range.end, in: file, encoding: encoding))])
    }

    static func position(_ position: SourcePosition, in file: SourceFile?, encoding: PositionEncoding) -> JSONValue {
        .object([("line", .int(max(position.line - 1, 0))), ("character", .int(encoding.character(of: position, in: file)))])
    }

    /// LSP's DiagnosticSeverity: 1 error, 2 warning, 3 information.
    static func severity(_ severity: Severity) -> Int {
        switch severity {
        case .error: return 1
        case .warning: return 2
        case .info: return 3
        }
    }
}
