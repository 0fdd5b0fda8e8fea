import WebPolicyRuntime

/// Maps each Unicode scalar of a YAML scalar's *value* back to the source characters that
/// produced it, so a problem found at offset 12 of a url-filter gets its caret on the right
/// column even when the value was written with escapes (`"\\."`, `"\x41"`), doubled quotes
/// (`'it''s'`) or folded over several lines.
///
/// The walk re-reads the source with YAML's rules for the scalar's style and checks that it
/// rebuilds exactly the value libyaml produced; when it does not (an exotic block-scalar
/// header, say), it returns nil and callers fall back to the whole scalar.
enum ScalarSourceMap {
    static func ranges(value: String, style: ScalarStyle, range: SourceRange, in file: SourceFile) -> [SourceRange]? {
        var reader = Reader(file: file, range: range)
        reader.skipNodeProperties()
        let produced: [(Unicode.Scalar, SourceRange)]?
        let count = value.unicodeScalars.count
        switch style {
        case .plain: produced = reader.readFlow(quote: nil, expectedCount: count)
        case .singleQuoted: produced = reader.readFlow(quote: "'", expectedCount: count)
        case .doubleQuoted: produced = reader.readFlow(quote: "\"", expectedCount: count)
        case .literal: produced = reader.readBlock(folded: false)
        case .folded: produced = reader.readBlock(folded: true)
        }
        guard let produced, produced.lazy.map(\.0).elementsEqual(value.unicodeScalars) else { return nil }
        return produced.map(\.1)
    }

    /// How a scalar's value lies in the file, worked out once for all the offsets asked about it.
    enum Mapping {
        /// Written as is on one line, its first scalar at this column.
        case verbatim(line: Int, column: Int, count: Int)
        /// Each value scalar's source range.
        case walked([SourceRange])
        /// Not mappable: offsets fall back to the whole scalar.
        case whole(SourceRange)
    }

    static func mapping(value: String, style: ScalarStyle, range: SourceRange, in file: SourceFile) -> Mapping {
        if let column = verbatimStartColumn(value: value, style: style, range: range, in: file) {
            return .verbatim(line: range.start.line, column: column, count: value.unicodeScalars.count)
        }
        return walkedMapping(value: value, style: style, range: range, in: file)
    }

    /// The mapping through the walk alone (the verbatim shortcut's tests compare with it).
    static func walkedMapping(value: String, style: ScalarStyle, range: SourceRange, in file: SourceFile) -> Mapping {
        guard let ranges = ranges(value: value, style: style, range: range, in: file), !ranges.isEmpty else { return .whole(range) }
        return .walked(ranges)
    }

    /// The source range of `length` value scalars starting at `offset`, or the whole scalar
    /// when the value cannot be mapped.
    static func range(of offset: Int, length: Int, in mapping: Mapping) -> SourceRange {
        switch mapping {
        case .whole(let range):
            return range
        case .verbatim(let line, let column, let count):
            let first = min(max(offset, 0), count - 1)
            let last = min(max(offset + length - 1, 0), count - 1)
            // As the union of the two scalars' ranges below.
            return SourceRange(start: SourcePosition(line: line, column: column + min(first, last)),
                               end: SourcePosition(line: line, column: column + max(first, last) + 1))
        case .walked(let ranges):
            let first = ranges[min(max(offset, 0), ranges.count - 1)]
            let last = ranges[min(max(offset + length - 1, 0), ranges.count - 1)]
            if last.start.line != first.start.line { return first }
            return first.union(last)
        }
    }
}

extension ScalarSourceMap {
    /// The column of the value's first scalar when the value is written verbatim on one line —
    /// no escapes, doubled quotes, folding, anchor or tag — as nearly every value is; then
    /// offsets map to columns one to one and the walk is not needed. Each escape or doubled
    /// quote writes a scalar with two or more, so a one-line body with as many scalars as the
    /// value, and the same ones, holds none.
    fileprivate static func verbatimStartColumn(value: String, style: ScalarStyle, range: SourceRange, in file: SourceFile) -> Int? {
        guard range.start.line == range.end.line, !value.isEmpty else { return nil }
        let quoted: Bool
        switch style {
        case .plain: quoted = false
        case .singleQuoted, .doubleQuoted: quoted = true
        case .literal, .folded: return nil
        }
        let scalars = file.text.unicodeScalars
        var body = scalars[file.index(of: range.start)..<file.index(of: range.end)]
        if quoted {
            guard body.count >= 2, body.first == (style == .singleQuoted ? "'" : "\""), body.last == body.first else { return nil }
            body = body.dropFirst().dropLast()
        }
        guard body.elementsEqual(value.unicodeScalars) else { return nil }
        return range.start.column + (quoted ? 1 : 0)
    }
}

/// A cursor over the source text that knows the position of every scalar it passes.
private struct Reader {
    let file: SourceFile
    let scalars: String.UnicodeScalarView
    var index: String.Index
    var position: SourcePosition
    let end: String.Index

    init(file: SourceFile, range: SourceRange) {
        self.file = file
        self.scalars = file.text.unicodeScalars
        self.index = file.index(of: range.start)
        self.position = range.start
        self.end = file.index(of: range.end)
    }

    var current: Unicode.Scalar? { index < scalars.endIndex ? scalars[index] : nil }

    func peek(_ distance: Int) -> Unicode.Scalar? {
        guard let target = scalars.index(index, offsetBy: distance, limitedBy: scalars.endIndex), target < scalars.endIndex else { return nil }
        return scalars[target]
    }

    var isAtBreak: Bool { current.map(SourceFile.isLineBreak) ?? false }
    var isAtBlank: Bool { current == " " || current == "\t" }

    /// Moves over one character (a `\r\n` pair counts as one line break) and returns its range.
    @discardableResult
    mutating func advance() -> SourceRange {
        let start = position
        guard let scalar = current else { return SourceRange(at: start) }
        index = scalars.index(after: index)
        if SourceFile.isLineBreak(scalar) {
            if scalar == "\r", current == "\n" { index = scalars.index(after: index) }
            position = SourcePosition(line: position.line + 1, column: 1)
            return SourceRange(at: start)
        }
        position.column += 1
        return SourceRange(start: start, end: position)
    }

    /// Skips an anchor (`&name`) and a tag (`!tag`) written before the scalar itself.
    mutating func skipNodeProperties() {
        while current == "&" || current == "!" {
            while let scalar = current, scalar != " ", scalar != "\t", !SourceFile.isLineBreak(scalar) { advance() }
            while isAtBlank || isAtBreak { advance() }
        }
    }

    // MARK: Flow scalars (plain, single- and double-quoted)

    /// `expectedCount`: the value's length, so that the output is allocated once.
    mutating func readFlow(quote: Unicode.Scalar?, expectedCount: Int) -> [(Unicode.Scalar, SourceRange)]? {
        var output: [(Unicode.Scalar, SourceRange)] = []
        output.reserveCapacity(expectedCount)
        if let quote {
            guard current == quote else { return nil }
            advance()
        }
        var pendingBlanks: [(Unicode.Scalar, SourceRange)] = []
        while let scalar = current {
            if quote == nil && index >= end { break }
            if quote == "'" && scalar == "'" {
                guard peek(1) == "'" else { break }
                output += pendingBlanks
                pendingBlanks.removeAll(keepingCapacity: true)
                let first = advance()
                output.append(("'", first.union(advance())))
                continue
            }
            if quote == "\"" && scalar == "\"" { break }
            if quote == "\"" && scalar == "\\" {
                output += pendingBlanks
                pendingBlanks.removeAll(keepingCapacity: true)
                guard readEscape(into: &output) else { return nil }
                continue
            }
            if scalar == " " || scalar == "\t" {
                pendingBlanks.append((scalar, advance()))
                continue
            }
            if SourceFile.isLineBreak(scalar) {
                // Flow folding: trailing blanks go, one break becomes a space, n breaks n-1 newlines.
                pendingBlanks.removeAll(keepingCapacity: true)
                let breakRange = advance()
                var breaks = 1
                while true {
                    while isAtBlank { advance() }
                    guard isAtBreak else { break }
                    advance()
                    breaks += 1
                }
                if breaks == 1 {
                    output.append((" ", breakRange))
                } else {
                    output += Array(repeating: ("\n", breakRange), count: breaks - 1)
                }
                continue
            }
            output += pendingBlanks
            pendingBlanks.removeAll(keepingCapacity: true)
            output.append((scalar, advance()))
        }
        if quote != nil { output += pendingBlanks }
        return output
    }

    /// One double-quoted escape sequence, mapped to its whole source text (`\x41` → `A`).
    private mutating func readEscape(into output: inout [(Unicode.Scalar, SourceRange)]) -> Bool {
        let start = position
        advance()  // the backslash
        guard let code = current else { return false }
        if SourceFile.isLineBreak(code) {
            // An escaped line break joins the lines without a space.
            advance()
            while isAtBlank { advance() }
            return true
        }
        advance()
        let simple: [Unicode.Scalar: Unicode.Scalar] = [
            "0": "\u{0}", "a": "\u{7}", "b": "\u{8}", "t": "\t", "\t": "\t", "n": "\n", "v": "\u{B}",
            "f": "\u{C}", "r": "\r", "e": "\u{1B}", " ": " ", "\"": "\"", "/": "/", "\\": "\\",
            "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}",
        ]
        let decoded: Unicode.Scalar?
        if let mapped = simple[code] {
            decoded = mapped
        } else {
            let digits: Int
            switch code {
            case "x": digits = 2
            case "u": digits = 4
            case "U": digits = 8
            default: return false
            }
            var value: UInt32 = 0
            for _ in 0..<digits {
                guard let digit = current, let hex = UInt32(String(digit), radix: 16) else { return false }
                value = value * 16 + hex
                advance()
            }
            decoded = Unicode.Scalar(value)
        }
        guard let decoded else { return false }
        output.append((decoded, SourceRange(start: start, end: position)))
        return true
    }

    // MARK: Block scalars (| and >)

    mutating func readBlock(folded: Bool) -> [(Unicode.Scalar, SourceRange)]? {
        guard current == "|" || current == ">" else { return nil }
        advance()
        var chomping: Unicode.Scalar = "="
        while let scalar = current, scalar == "+" || scalar == "-" || ("1"..."9").contains(scalar) {
            // An explicit indentation indicator depends on the parent's indentation: not mapped.
            if ("1"..."9").contains(scalar) { return nil }
            chomping = scalar
            advance()
        }
        while let scalar = current, !SourceFile.isLineBreak(scalar) { advance() }  // blanks and a comment
        guard isAtBreak else { return [] }
        advance()

        // Content lines up to the scalar's end (which the composer clamps to the last content
        // line, so trailing empty lines are not read); indentation is the first non-empty line's.
        var lines: [(text: [(Unicode.Scalar, SourceRange)], breakRange: SourceRange?, blankIndent: Int)] = []
        while index < end {
            var indent = 0
            while current == " " { advance(); indent += 1 }
            var text: [(Unicode.Scalar, SourceRange)] = []
            while let scalar = current, !SourceFile.isLineBreak(scalar) {
                text.append((scalar, advance()))
            }
            let breakRange = isAtBreak ? advance() : nil
            lines.append((text, breakRange, indent))
            if breakRange == nil { break }
        }
        guard let contentIndent = lines.first(where: { !$0.text.isEmpty })?.blankIndent else { return [] }
        var contentLines: [(text: [(Unicode.Scalar, SourceRange)], breakRange: SourceRange?, isEmpty: Bool)] = []
        for line in lines {
            if line.text.isEmpty {
                contentLines.append(([], line.breakRange, true))
            } else {
                guard line.blankIndent >= contentIndent else { return nil }
                let extra = line.blankIndent - contentIndent
                let padding = Array(repeating: (Unicode.Scalar(" "), line.breakRange ?? SourceRange(at: position)), count: extra)
                contentLines.append((padding + line.text, line.breakRange, false))
            }
        }
        var output: [(Unicode.Scalar, SourceRange)] = []
        for (offset, line) in contentLines.enumerated() {
            output += line.text
            guard let breakRange = line.breakRange else { continue }
            let isLast = offset == contentLines.count - 1
            if isLast {
                if chomping != "-" { output.append(("\n", breakRange)) }
                continue
            }
            let next = contentLines[offset + 1]
            let moreIndented = line.text.first?.0 == " " || next.text.first?.0 == " "
            if folded && !line.isEmpty && !next.isEmpty && !moreIndented {
                output.append((" ", breakRange))
            } else if folded && !line.isEmpty && next.isEmpty && !moreIndented {
                continue  // the break before empty lines is folded away; the empty lines give newlines
            } else {
                output.append(("\n", breakRange))
            }
        }
        return output
    }
}
