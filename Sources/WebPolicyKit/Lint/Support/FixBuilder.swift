import WebPolicyRuntime

/// Text edits for fixes, built only where the source text is simple enough for the edit to be
/// certain: a value written plain or quoted without escapes, a key in block style. Anything
/// else gets no fix (the finding's hint still says what to do).
struct FixBuilder {
    let files: [String: SourceFile]

    /// The source text a located string was written as.
    private func written(_ text: LocatedString) -> String? {
        guard let file = files[text.location.path] else { return nil }
        let range = text.location.range
        return String(file.text[file.index(of: range.start)..<file.index(of: range.end)])
    }

    /// Replaces a string value, keeping its quotes. Nil when the value was written with
    /// escapes or across lines, where columns and characters do not correspond one to one.
    func replace(_ text: LocatedString, with value: String) -> TextEdit? {
        guard let source = written(text), text.location.range.start.line == text.location.range.end.line else { return nil }
        var range = text.location.range
        if source == text.value {
            return TextEdit(range: range, replacement: value)
        }
        guard source.count == text.value.count + 2, let quote = source.first, quote == "\"" || quote == "'",
              source.last == quote, source.dropFirst().dropLast() == Substring(text.value), !text.value.contains("\\"), !text.value.contains(quote) else { return nil }
        range.start.column += 1
        range.end.column -= 1
        let needsEscaping = value.contains(quote) || (quote == "\"" && value.contains("\\"))
        return needsEscaping ? nil : TextEdit(range: range, replacement: value)
    }

    /// Sets `key: value` in the block mapping that `sibling` (a value of that mapping) belongs
    /// to: replaces the existing value when there is one, else inserts a line after the
    /// sibling's line at the sibling key's indentation. Nil for flow mappings.
    func set(_ key: String, to value: String, existing: SourceLocation?, besides sibling: LocatedString) -> TextEdit? {
        if let existing {
            return TextEdit(range: existing.range, replacement: value)
        }
        guard let file = files[sibling.location.path], let column = keyColumn(of: sibling, in: file) else { return nil }
        let line = sibling.location.range.end.line
        let end = SourcePosition(line: line, column: file.line(line).count + 1)
        return TextEdit(range: SourceRange(start: end, end: end), replacement: "\n" + String(repeating: " ", count: column - 1) + "\(key): \(value)")
    }

    /// The column where the key of a block-mapping value starts: `  - host: x` → 5. Nil when
    /// the line is not `[- ]key: value [# comment]` (flow style, multi-line values).
    private func keyColumn(of value: LocatedString, in file: SourceFile) -> Int? {
        let range = value.location.range
        guard range.start.line == range.end.line else { return nil }
        let line = Array(file.line(range.start.line))
        let rest = line.dropFirst(range.end.column - 1)
        guard rest.allSatisfy({ $0 == " " }) || rest.drop(while: { $0 == " " }).first == "#" else { return nil }
        var index = range.start.column - 2  // before the value
        while index >= 0, line[index] == " " { index -= 1 }
        guard index >= 0, line[index] == ":" else { return nil }
        index -= 1
        let keyEnd = index
        while index >= 0, line[index] != " " { index -= 1 }
        guard keyEnd > index else { return nil }
        let prefix = line[...max(index, 0)].filter { $0 != " " }
        guard index < 0 || prefix.isEmpty || prefix == ["-"] else { return nil }
        return index + 2
    }
}

/// Applies fixes to a file's text. A fix is taken whole or not at all; one whose edits
/// overlap a fix already taken is left for the next run, and an edit two fixes share (`secure:
/// true` for two reasons) is made once.
public enum FixApplier {
    public static func apply(_ fixes: [Fix], to file: SourceFile) -> (text: String, applied: Int) {
        var taken: [TextEdit] = []
        var applied = 0
        for fix in fixes.sorted(by: { ($0.edits.map(\.range.start).min() ?? .init(line: 0, column: 0)) < ($1.edits.map(\.range.start).min() ?? .init(line: 0, column: 0)) }) {
            let new = fix.edits.filter { !taken.contains($0) }
            let clashes = new.contains { edit in taken.contains { overlaps($0.range, edit.range) } }
            guard !clashes else { continue }
            taken += new
            applied += 1
        }
        var result = ""
        var cursor = file.text.startIndex
        for edit in taken.sorted(by: { ($0.range.start, $0.range.end) < ($1.range.start, $1.range.end) }) {
            let start = file.index(of: edit.range.start), end = file.index(of: edit.range.end)
            result += file.text[cursor..<start]
            result += edit.replacement
            cursor = end
        }
        result += file.text[cursor...]
        return (result, applied)
    }

    /// Ranges that share text, or two insertions at one place (their order would be a guess).
    private static func overlaps(_ left: SourceRange, _ right: SourceRange) -> Bool {
        if left.start == left.end && right.start == right.end { return left.start == right.start }
        return left.start < right.end && right.start < left.end
    }
}

extension FixApplier {
    /// `lint --fix`: rewrites each file of the report that has fixes, atomically, with the
    /// certain fixes (and those that change what the policy means, with `includingUnsafe`);
    /// returns how many findings were fixed in how many files.
    public static func applyInPlace(_ report: LintReport, includingUnsafe: Bool) throws -> (fixed: Int, files: Int) {
        var byFile: [String: [Fix]] = [:]
        for diagnostic in report.diagnostics {
            guard let fix = diagnostic.fix, includingUnsafe || !fix.changesMeaning else { continue }
            byFile[diagnostic.location.path, default: []].append(fix)
        }
        var fixed = 0
        var files = 0
        for path in byFile.keys.sorted() {
            guard let file = report.sources[path], let fixes = byFile[path] else { continue }
            let (text, applied) = apply(fixes, to: file)
            guard applied > 0, text != file.text else { continue }
            try ArtefactWriter.writeFile(text, to: path)
            fixed += applied
            files += 1
        }
        return (fixed, files)
    }
}
