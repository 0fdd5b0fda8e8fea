import WebPolicyRuntime

/// `path:line:col: severity: message [rule]`, then the source line with a caret under the
/// range, the hint and the notes (actionlint's layout), and a summary line.
public enum HumanReporter: Reporter {
    public static let identifier = "human"

    public static func render(_ report: LintReport, options: ReporterOptions) -> String {
        let style = Style(enabled: options.colors)
        let sources = report.sources
        // Each finding's text on its own, on every core (a list can have 150,000), joined in order.
        let parts = report.diagnostics.parallelMap(minimumChunk: 512) { diagnostic in render(diagnostic, sources: sources, style: style, options: options) }
        return parts.joined() + report.summary + "\n"
    }

    private static func render(_ diagnostic: Diagnostic, sources: [String: SourceFile], style: Style, options: ReporterOptions) -> String {
        var output = ""
        let location = diagnostic.location
        output += style.bold("\(location.path):\(location.start):") + " "
        output += style.severity(diagnostic.severity) + " "
        output += diagnostic.message + " " + style.dim("[\(diagnostic.ruleID)]") + "\n"
        // Hints and notes hang from the snippet's gutter.
        var gutter = " "
        if let file = sources[location.path] {
            output += snippet(file: file, range: location.range, style: style, severity: diagnostic.severity)
            gutter = String(repeating: " ", count: String(location.start.line).count)
        }
        if let hint = diagnostic.hint, hint != diagnostic.fix?.description {
            output += "\(gutter) = " + style.cyan("hint:") + " \(hint)\n"
        }
        for note in diagnostic.notes {
            let place = note.location.map { "\($0.path):\($0.start): " } ?? ""
            output += "\(gutter) = " + style.cyan("note:") + " \(place)\(note.message)\n"
        }
        if let fix = diagnostic.fix {
            output += "\(gutter) = " + style.cyan("fix:") + " \(fix.description) (\(options.command(for: fix)))\n"
        }
        return output + "\n"
    }

    /// Lines longer than this many characters are shown as a window around the caret.
    static let maximumSnippetWidth = 120

    /// The source line under a gutter, and `^~~~` under the range's part on that line.
    static func snippet(file: SourceFile, range: SourceRange, style: Style, severity: Severity) -> String {
        let number = String(range.start.line)
        let gutter = String(repeating: " ", count: number.count)
        // Only the window shown is read: a minified list is one line of megabytes, quoted at
        // every finding (rustc and clang cut long lines the same way).
        let (_, length) = file.line(range.start.line, fromColumn: 1)
        var startColumn = min(max(range.start.column, 1), length + 1)
        var endColumn = range.end.line == range.start.line ? max(range.end.column, startColumn + 1) : length + 1
        var prefix = ""
        var suffix = ""
        let line: [Unicode.Scalar]
        if length > maximumSnippetWidth {
            let low = max(0, startColumn - 1 - maximumSnippetWidth / 3)
            let high = min(length, low + maximumSnippetWidth)
            if low > 0 { prefix = "…" }
            if high < length { suffix = "…" }
            line = Array(file.line(range.start.line, fromColumn: low + 1).scalars.prefix(high - low))
            startColumn -= low
            endColumn = min(endColumn - low, line.count + 1)
        } else {
            line = Array(file.line(range.start.line))
        }
        var output = "\(gutter) |\n"
        output += "\(number) | \(prefix)\(String(String.UnicodeScalarView(line)))\(suffix)\n"
        var padding = prefix.isEmpty ? "" : " "
        for scalar in line.prefix(startColumn - 1) {
            padding += scalar == "\t" ? "\t" : String(repeating: " ", count: DisplayWidth.of(scalar))
        }
        let underlined = line.dropFirst(startColumn - 1).prefix(max(endColumn - startColumn, 1))
        let width = max(underlined.reduce(0) { $0 + DisplayWidth.of($1) }, 1)
        let marker = "^" + String(repeating: "~", count: width - 1)
        output += "\(gutter) | \(padding)\(style.caret(marker, severity))\n"
        return output
    }

    struct Style: Sendable {
        let enabled: Bool

        private func paint(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        func bold(_ text: String) -> String { paint(text, "1") }
        func dim(_ text: String) -> String { paint(text, "2") }
        func cyan(_ text: String) -> String { paint(text, "36") }

        func severity(_ severity: Severity) -> String {
            switch severity {
            case .error: return paint("error:", "1;31")
            case .warning: return paint("warning:", "1;33")
            case .info: return paint("info:", "1;34")
            }
        }

        func caret(_ text: String, _ severity: Severity) -> String {
            switch severity {
            case .error: return paint(text, "31")
            case .warning: return paint(text, "33")
            case .info: return paint(text, "34")
            }
        }
    }
}

/// Terminal columns of a character: 2 for East Asian wide and emoji, 0 for combining marks.
enum DisplayWidth {
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        // Printable ASCII, nearly every character of a policy or a list, without the Unicode
        // tables: 150,000 findings' snippets spent an eighth of lint's time looking it up.
        if value >= 0x20, value < 0x7F { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]
}
