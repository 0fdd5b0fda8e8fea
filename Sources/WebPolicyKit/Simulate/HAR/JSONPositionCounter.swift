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

    var position: SourcePosition { SourcePosition(line: line, column: column) }

    mutating func advance(over bytes: UnsafeBufferPointer<UInt8>) {
        var (line, column, previous) = (line, column, previous)
        for byte in bytes {
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
        if !started, let first = bytes.first {
            started = true
            switch first {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth = 1
            case UInt8(ascii: "\""): inString = true
            default: isScalar = true
            }
            index = 1
            if isScalar, bytes.count == 1 { return nil }
        }
        if isScalar {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return index
                default: index += 1
                }
            }
            return nil
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return index }
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// At the end of the text: a number or literal may end there; anything else is cut off.
    var endsAtEndOfText: Bool { isScalar }
}
