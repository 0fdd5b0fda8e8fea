/// Objective-C's lexical grammar, small enough to do in process: identifiers, `@keywords`,
/// string and character literals, numbers, punctuation, the two comment forms and `#` lines.
/// No headers are needed (Linux has no WebKit headers, so clang cannot build an AST here;
/// parsing-swift-for-audit.md §6). Every input terminates: each step consumes at least one
/// byte, and an unterminated literal or comment ends at the end of the file.
struct ObjCTokenizer {
    private let bytes: [UInt8]
    private var index = 0
    /// Whether only blanks have been seen since the last line break (a `#` there starts a
    /// directive).
    private var atLineStart = true
    /// Comments, for suppressions and for the tests; never facts.
    private(set) var comments: [(text: String, start: Int)] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func tokens(of bytes: [UInt8]) -> [ObjCToken] {
        var tokenizer = ObjCTokenizer(bytes)
        return tokenizer.all()
    }

    mutating func all() -> [ObjCToken] {
        var tokens: [ObjCToken] = []
        tokens.reserveCapacity(bytes.count / 5)
        while let token = next() { tokens.append(token) }
        return tokens
    }

    private func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == 0x24 || byte >= 0x80
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || (byte >= 0x30 && byte <= 0x39)
    }

    mutating func next() -> ObjCToken? {
        while index < bytes.count {
            let current = bytes[index]
            switch current {
            case 0x0A:
                atLineStart = true
                index += 1
                continue
            case 0x20, 0x09, 0x0D, 0x0B, 0x0C:
                index += 1
                continue
            case UInt8(ascii: "/") where byte(at: index + 1) == UInt8(ascii: "/"):
                let start = index
                while index < bytes.count, bytes[index] != 0x0A {
                    // A backslash at the end of a line continues a // comment, as in C.
                    if bytes[index] == UInt8(ascii: "\\"), byte(at: index + 1) == 0x0A { index += 1 }
                    index += 1
                }
                comments.append((String(decoding: bytes[start..<index], as: UTF8.self), start))
                continue
            case UInt8(ascii: "/") where byte(at: index + 1) == UInt8(ascii: "*"):
                let start = index
                index += 2
                while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && byte(at: index + 1) == UInt8(ascii: "/")) { index += 1 }
                index = min(index + 2, bytes.count)
                comments.append((String(decoding: bytes[start..<index], as: UTF8.self), start))
                continue
            case UInt8(ascii: "#") where atLineStart:
                return directive()
            default:
                break
            }
            atLineStart = false
            let start = index
            if current == UInt8(ascii: "@"), let following = byte(at: index + 1) {
                if following == UInt8(ascii: "\"") {
                    index += 1
                    return string(from: start, kind: .string)
                }
                if Self.isIdentifierStart(following) {
                    index += 1
                    while index < bytes.count, Self.isIdentifierByte(bytes[index]) { index += 1 }
                    return ObjCToken(kind: .atKeyword, text: String(decoding: bytes[(start + 1)..<index], as: UTF8.self), start: start, end: index)
                }
            }
            if current == UInt8(ascii: "\"") { return string(from: start, kind: .string) }
            if current == UInt8(ascii: "'") { return string(from: start, kind: .character) }
            if Self.isIdentifierStart(current) {
                while index < bytes.count, Self.isIdentifierByte(bytes[index]) { index += 1 }
                return ObjCToken(kind: .identifier, text: String(decoding: bytes[start..<index], as: UTF8.self), start: start, end: index)
            }
            if current >= 0x30 && current <= 0x39 || (current == UInt8(ascii: ".") && (byte(at: index + 1).map { $0 >= 0x30 && $0 <= 0x39 } ?? false)) {
                index += 1
                // pp-number: digits, letters, dots, and a sign after an exponent.
                while index < bytes.count {
                    let byte = bytes[index]
                    if Self.isIdentifierByte(byte) || byte == UInt8(ascii: ".") {
                        index += 1
                    } else if (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")),
                              [UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "p"), UInt8(ascii: "P")].contains(bytes[index - 1]) {
                        index += 1
                    } else {
                        break
                    }
                }
                return ObjCToken(kind: .number, text: String(decoding: bytes[start..<index], as: UTF8.self), start: start, end: index)
            }
            if current == UInt8(ascii: "-"), byte(at: index + 1) == UInt8(ascii: ">") {
                index += 2
                return ObjCToken(kind: .punctuation, text: "->", start: start, end: index)
            }
            index += 1
            return ObjCToken(kind: .punctuation, text: String(UnicodeScalar(current)), start: start, end: index)
        }
        return nil
    }

    /// A string or character literal from its quote (after an `@`, if any); escapes resolved
    /// for the common cases, an unterminated literal ends at the line's end.
    private mutating func string(from start: Int, kind: ObjCToken.Kind) -> ObjCToken {
        let quote = bytes[index]
        index += 1
        var value: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                index += 1
                break
            }
            if byte == 0x0A { break }
            if byte == UInt8(ascii: "\\"), let escaped = self.byte(at: index + 1) {
                switch escaped {
                case UInt8(ascii: "n"): value.append(0x0A)
                case UInt8(ascii: "t"): value.append(0x09)
                case 0x0A: break  // a line continuation inside the literal
                default: value.append(escaped)
                }
                index += 2
                continue
            }
            value.append(byte)
            index += 1
        }
        return ObjCToken(kind: kind, text: String(decoding: value, as: UTF8.self), start: start, end: index)
    }

    /// A preprocessor line with its continuations; comments inside it are dropped.
    private mutating func directive() -> ObjCToken {
        let start = index
        index += 1
        var body: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A { break }
            if byte == UInt8(ascii: "\\"), self.byte(at: index + 1) == 0x0A {
                index += 2
                body.append(0x20)
                continue
            }
            if byte == UInt8(ascii: "\\"), self.byte(at: index + 1) == 0x0D, self.byte(at: index + 2) == 0x0A {
                index += 3
                body.append(0x20)
                continue
            }
            if byte == UInt8(ascii: "/"), self.byte(at: index + 1) == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                break
            }
            if byte == UInt8(ascii: "/"), self.byte(at: index + 1) == UInt8(ascii: "*") {
                index += 2
                while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && self.byte(at: index + 1) == UInt8(ascii: "/")) { index += 1 }
                index = min(index + 2, bytes.count)
                body.append(0x20)
                continue
            }
            if byte == UInt8(ascii: "\"") {
                // A string in a directive (`#define NAME @"a // b"`) keeps its slashes.
                body.append(byte)
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != 0x0A {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { body.append(bytes[index]); index += 1 }
                    body.append(bytes[index])
                    index += 1
                }
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") { body.append(bytes[index]); index += 1 }
                continue
            }
            body.append(byte)
            index += 1
        }
        let text = String(decoding: body, as: UTF8.self).trimmingBlanks()
        return ObjCToken(kind: .directive, text: text, start: start, end: index)
    }
}

extension String {
    func trimmingBlanks() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" || first == "\r" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\r" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
