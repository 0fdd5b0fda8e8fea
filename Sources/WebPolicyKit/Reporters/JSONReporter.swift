import WebPolicyRuntime

/// A stable, documented JSON shape (docs/output-formats.md), version 1:
///
/// ```json
/// { "version": 1,
///   "diagnostics": [ { "rule", "severity", "message", "file", "line", "column",
///                      "endLine", "endColumn", "hint", "notes": [ { "message", "file", "line", "column" } ],
///                      "fix": { "description", "changesMeaning", "edits": [ { "line", "column",
///                               "endLine", "endColumn", "replacement" } ] } } ],
///   "summary": { "files", "errors", "warnings", "infos" } }
/// ```
/// Keys always appear, in this order; `hint` and `fix` are null when absent; note positions are null for
/// notes without a place. Lines and columns are 1-based, columns in Unicode scalars, end exclusive.
public enum JSONReporter: Reporter {
    public static let identifier = "json"
    public static let formatVersion = 1

    public static func render(_ report: LintReport, options: ReporterOptions) -> String {
        JSONValue.object([
            ("version", .int(formatVersion)),
            ("diagnostics", .array(report.diagnostics.map(encode))),
            ("summary", .object([
                ("files", .int(report.lintedFiles.count)),
                ("errors", .int(report.count(.error))),
                ("warnings", .int(report.count(.warning))),
                ("infos", .int(report.count(.info))),
            ])),
        ]).serialized()
    }

    static func encode(_ diagnostic: Diagnostic) -> JSONValue {
        let range = diagnostic.location.range
        return .object([
            ("rule", .string(diagnostic.ruleID)),
            ("severity", .string(diagnostic.severity.rawValue)),
            ("message", .string(diagnostic.message)),
            ("file", .string(diagnostic.location.path)),
            ("line", .int(range.start.line)),
            ("column", .int(range.start.column)),
            ("endLine", .int(range.end.line)),
            ("endColumn", .int(range.end.column)),
            ("hint", diagnostic.hint.map(JSONValue.string) ?? .null),
            ("notes", .array(diagnostic.notes.map { note in
                .object([
                    ("message", .string(note.message)),
                    ("file", note.location.map { .string($0.path) } ?? .null),
                    ("line", note.location.map { .int($0.start.line) } ?? .null),
                    ("column", note.location.map { .int($0.start.column) } ?? .null),
                ])
            })),
            ("fix", diagnostic.fix.map { fix in
                .object([
                    ("description", .string(fix.description)),
                    ("changesMeaning", .bool(fix.changesMeaning)),
                    ("edits", .array(fix.edits.map { edit in
                        .object([
                            ("line", .int(edit.range.start.line)), ("column", .int(edit.range.start.column)),
                            ("endLine", .int(edit.range.end.line)), ("endColumn", .int(edit.range.end.column)),
                            ("replacement", .string(edit.replacement)),
                        ])
                    })),
                ])
            } ?? .null),
        ])
    }
}
