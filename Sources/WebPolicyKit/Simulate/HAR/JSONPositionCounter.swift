import WebPolicyRuntime

/// Where a run of JSON bytes leaves off, counted as `JSONDocument` counts it — lines broken at
/// \n, \r\n, \r, U+0085, U+2028 and U+2029, columns in Unicode scalars — across reads that cut
/// the text anywhere, even inside a line break or a character.
struct JSONPositionCounter {
    private(set) var line = 1
    private(set) var column = 1
    /// The two bytes before the next one: a \n after \r, and the last byte of U+0085, U+2028
    /// or U+2029, break a line only as their whole sequence does.
    private var previous: (UInt8, UInt8) = (0, 0)

    init() {}

    /// At `position`, after a byte that breaks no line and starts no line break.
    init(at position: SourcePosition) {
        (line, column) = (position.line, position.column)
    }

    var position: SourcePosition { SourcePosition(line: line, column: column) }

    /// The position, for bytes that start at `start` in the file.
    func position(after start: SourcePosition) -> SourcePosition {
        position.placed(after: start)
    }

    mutating func advance(over bytes: UnsafeBufferPointer<UInt8>) {
        var (line, column, previous) = (line, column, previous)
        for byte in bytes {
            // Nearly every byte: printable ASCII, one column.
            if byte >= 0x20, byte < 0x80 {
                column += 1
                previous = (previous.1, byte)
                continue
            }
            switch byte {
            case 0x0A where previous.1 == 0x0D:
                break  // the \n of \r\n: the \r broke the line
            case 0x0A, 0x0D:
                line += 1
                column = 1
            case 0x85 where previous.1 == 0xC2,
                 0xA8 where previous == (0xE2, 0x80),
                 0xA9 where previous == (0xE2, 0x80):
                line += 1
                column = 1
            default:
                if byte & 0xC0 != 0x80 { column += 1 }
            }
            previous = (previous.1, byte)
        }
        (self.line, self.column, self.previous) = (line, column, previous)
    }
}

extension SourcePosition {
    /// This position, counted from 1:1 at the start of some bytes, where those bytes start
    /// at `start`.
    func placed(after start: SourcePosition) -> SourcePosition {
        line == 1 ? SourcePosition(line: start.line, column: start.column + column - 1) : SourcePosition(line: start.line + line - 1, column: column)
    }
}

extension SourceRange {
    func placed(after start: SourcePosition) -> SourceRange {
        SourceRange(start: self.start.placed(after: start), end: end.placed(after: start))
    }
}

/// Finds where a JSON value ends without reading it: strings and brackets followed, nothing
/// built or checked (the value is parsed afterwards, or skipped). Resumable: a value may be
/// fed in as many pieces as reads cut it into.
struct JSONValueEndScanner {
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var started = false
    /// A number, `true`, `false` or `null`: it ends at the first byte that cannot be in one.
    private var isScalar = false

    /// The index in `bytes` just after the value, or nil if it goes on past them.
    mutating func end(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = bytes.count
        if !started, let first = bytes.first {
            started = true
            switch first {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth = 1
            case UInt8(ascii: "\""): inString = true
            default: isScalar = true
            }
            index = 1
        }
        if isScalar {
            while index < count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return index
                default: index += 1
                }
            }
            return nil
        }
        // The state in locals for the loop (kept in registers), written back when the bytes
        // run out before the value ends.
        var (depth, inString, escaped) = (depth, inString, escaped)
        defer { (self.depth, self.inString, self.escaped) = (depth, inString, escaped) }
        while index < count {
            if inString {
                if escaped {
                    escaped = false
                    index += 1
                    continue
                }
                // A string's text, up to its quote or a backslash: most of an entry. (Eight
                // bytes at a time measured no faster: a HAR's strings are short.)
                while index < count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
                guard index < count else { return nil }
                if bytes[index] == UInt8(ascii: "\\") {
                    escaped = true
                } else {
                    inString = false
                    if depth == 0 { return index + 1 }
                }
                index += 1
                continue
            }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index + 1 }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// At the end of the text: a number or literal may end there; anything else is cut off.
    var endsAtEndOfText: Bool { isScalar }
}
