/// A JSON string's bytes written straight into an output buffer: the one escaping every JSON
/// output of the package uses (`JSONValue`, simulate's JSON lines). Most strings need no escape
/// at all, and eight bytes at a time find the first that does.
///
/// What is escaped (RFC 8259 §7, and what JavaScript cannot hold in a string literal): `"` and
/// `\`, the control characters below 0x20 and DEL (`\n`, `\r`, `\t`, `\b`, `\f` by name, the
/// others as `\u00XX`), and U+2028 / U+2029 (`\u2028`, `\u2029`). Everything else is copied.
package enum JSONStringBytes {
    /// Appends `"bytes"`, escaped; `bytes` must be UTF-8 (a Swift string's are).
    @inlinable
    package static func append(quoting bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(0x22)
        var start = 0
        let end = bytes.count
        while start < end {
            let next = PrintableASCII.firstFlagged(in: bytes, from: start, to: end, word: flags, byte: flagged)
            if next > start { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<next])) }
            guard next < end else { break }
            start = next + appendEscape(at: next, of: bytes, to: &output)
        }
        output.append(0x22)
    }

    /// Appends `"bytes"`, escaped, reading bytes that are not UTF-8 as `String(decoding:as:)`
    /// does (each broken sequence a U+FFFD): an image's strings, which a file could spoil.
    package static func append(quotingRepairing bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        if PrintableASCII.isASCIIWithoutNUL(bytes) {
            append(quoting: bytes, to: &output)
        } else {
            append(quoting: String(decoding: bytes, as: UTF8.self), to: &output)
        }
    }

    /// Appends `"string"`, escaped.
    @inlinable
    package static func append(quoting string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { append(quoting: $0, to: &output) }
    }

    /// The high bit of each byte that may need an escape: below 0x20 (its top three bits zero),
    /// `"`, `\`, DEL, and 0xE2 (the lead byte of U+2028 and U+2029).
    @inlinable @inline(__always)
    static func flags(_ word: UInt64) -> UInt64 {
        EightBytes.zeroBytes(word & EightBytes.repeated(0xE0))
            | EightBytes.bytes(equalTo: 0x22, in: word) | EightBytes.bytes(equalTo: 0x5C, in: word)
            | EightBytes.bytes(equalTo: 0x7F, in: word) | EightBytes.bytes(equalTo: 0xE2, in: word)
    }

    @inlinable @inline(__always)
    static func flagged(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2
    }

    /// Writes the flagged byte at `index` as JSON wants it; how many bytes of `bytes` it took.
    @usableFromInline
    static func appendEscape(at index: Int, of bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> Int {
        let byte = bytes[index]
        switch byte {
        case 0x22: output.append(contentsOf: [0x5C, 0x22])
        case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: output.append(contentsOf: [0x5C, 0x6E])
        case 0x0D: output.append(contentsOf: [0x5C, 0x72])
        case 0x09: output.append(contentsOf: [0x5C, 0x74])
        case 0x08: output.append(contentsOf: [0x5C, 0x62])
        case 0x0C: output.append(contentsOf: [0x5C, 0x66])
        case 0xE2:
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; any other E2 sequence is copied.
            if index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                appendUnicodeEscape(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029, to: &output)
                return 3
            }
            output.append(byte)
        default: appendUnicodeEscape(UInt16(byte), to: &output)
        }
        return 1
    }

    /// `\uXXXX`, lowercase hexadecimal.
    @usableFromInline
    static func appendUnicodeEscape(_ value: UInt16, to output: inout [UInt8]) {
        output.append(contentsOf: [0x5C, 0x75])
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8((value >> UInt16(shift)) & 0xF)
            output.append(digit < 10 ? 0x30 + digit : 0x61 + digit - 10)
        }
    }

    /// Appends `value` in decimal.
    @inlinable
    package static func append(_ value: Int, to output: inout [UInt8]) {
        if value < 0 {
            output.append(0x2D)
            // The magnitude of Int.min does not fit an Int.
            append(magnitude: value.magnitude, to: &output)
        } else {
            append(magnitude: UInt(value), to: &output)
        }
    }

    @usableFromInline
    static func append(magnitude value: UInt, to output: inout [UInt8]) {
        guard value >= 10 else { output.append(0x30 + UInt8(value)); return }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                count += 1
                buffer[24 - count] = 0x30 + UInt8(rest % 10)
                rest /= 10
            }
            output.append(contentsOf: buffer[(24 - count)...])
        }
    }
}
