import WebPolicyKit
import WebPolicyRuntime

/// The code actions of a finding, as `lint` offers them: its fix (certain, or one that changes
/// what the policy means, labelled so), a suppression on its line, and for the whole file what
/// `lint --fix` (and `--fix --unsafe-fixes`) would write.
enum CodeActions {
    /// The kind of the whole-file actions: editors run `source.fixAll` on save when asked to.
    static let fixAllKind = "source.fixAll.webpolicy"

    /// The actions for the findings of `report` in `file` whose lines meet `lines` (0-based,
    /// inclusive), then the whole-file ones. `suppressible`: the rule ids a suppression may
    /// name (lint's rules and the audit's).
    static func actions(for report: LintReport, in file: SourceFile, uri: String, lines: ClosedRange<Int>, encoding: PositionEncoding, suppressible: Set<String>) -> [JSONValue] {
        let findings = report.diagnostics.filter { $0.location.path == file.path }
        var actions: [JSONValue] = []
        for finding in findings where (finding.location.range.start.line - 1...max(finding.location.range.end.line - 1, finding.location.range.start.line - 1)).overlaps(lines) {
            let diagnostic = LSPDiagnostic.encode(finding, in: file, encoding: encoding)
            if let fix = finding.fix {
                let title = fix.changesMeaning ? "Fix (changes what the policy means): \(fix.description)" : "Fix: \(fix.description)"
                actions.append(action(title, kind: "quickfix", diagnostic: diagnostic, preferred: !fix.changesMeaning,
                                      edits: fix.edits.map { edit($0.range, $0.replacement, file, encoding) }, uri: uri))
            }
            // Only a rule's finding can be suppressed; a broken value is fixed, never hidden.
            if suppressible.contains(finding.ruleID), let suppression = suppression(of: finding, in: file) {
                actions.append(action("Suppress \(finding.ruleID) on this line (then say why after --)", kind: "quickfix", diagnostic: diagnostic,
                                      preferred: false, edits: [edit(suppression.range, suppression.replacement, file, encoding)], uri: uri))
            }
        }
        for (unsafe, title) in [(false, "Apply webpolicy's certain fixes (lint --fix)"), (true, "Apply every webpolicy fix, those that change meaning too (lint --fix --unsafe-fixes)")] {
            let fixes = findings.compactMap(\.fix).filter { unsafe || !$0.changesMeaning }
            // The unsafe action only when it does more than the certain one.
            guard !fixes.isEmpty, !unsafe || fixes.contains(where: \.changesMeaning) else { continue }
            let (text, applied) = FixApplier.apply(fixes, to: file)
            guard applied > 0, text != file.text else { continue }
            actions.append(.object([
                ("title", .string(title)),
                ("kind", .string(fixAllKind)),
                ("edit", .object([("changes", .object([(uri, .array([wholeText(text, of: file, encoding)]))]))])),
            ]))
        }
        return actions
    }

    private static func action(_ title: String, kind: String, diagnostic: JSONValue, preferred: Bool, edits: [JSONValue], uri: String) -> JSONValue {
        var members: [(String, JSONValue)] = [("title", .string(title)), ("kind", .string(kind)), ("diagnostics", .array([diagnostic]))]
        if preferred { members.append(("isPreferred", .bool(true))) }
        members.append(("edit", .object([("changes", .object([(uri, .array(edits))]))])))
        return .object(members)
    }

    private static func edit(_ range: SourceRange, _ text: String, _ file: SourceFile, _ encoding: PositionEncoding) -> JSONValue {
        .object([("range", LSPDiagnostic.range(range, in: file, encoding: encoding)), ("newText", .string(text))])
    }

    /// The whole text replaced: what `lint --fix` writes, exactly.
    private static func wholeText(_ text: String, of file: SourceFile, _ encoding: PositionEncoding) -> JSONValue {
        let lines = max(file.lineCount, 1)
        let end = SourcePosition(line: lines, column: file.line(lines).count + 1)
        return edit(SourceRange(start: SourcePosition(line: 1, column: 1), end: end), text, file, encoding)
    }

    /// `# webpolicy:disable-next-line RULE -- ` on a line of its own above the finding's line,
    /// indented as it. The reason is left for the author: until it is written, lint says the
    /// suppression gives none (a suppression without a reason hides nothing).
    static func suppression(of finding: Diagnostic, in file: SourceFile) -> TextEdit? {
        let line = finding.location.range.start.line
        guard line >= 1, line <= file.lineCount else { return nil }
        let indent = String(String.UnicodeScalarView(file.line(line).prefix { $0 == " " || $0 == "\t" }))
        // A list item's finding: the comment goes above its dash, at the dash's indent.
        let start = SourcePosition(line: line, column: 1)
        return TextEdit(range: SourceRange(start: start, end: start), replacement: "\(indent)# webpolicy:disable-next-line \(finding.ruleID) -- \n")
    }
}
