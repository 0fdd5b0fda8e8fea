/// A JSON value with the source range of everything in it, for messages about content-blocker
/// lists (`webpolicy import`) at their line and column. Foundation's parser keeps no positions.
public struct JSONNode: Sendable {
    public enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        case object([JSONMember])
    }

    public var value: Value
    public var range: SourceRange

    /// The member named `key`; with duplicates, the last one, as WebKit's JSON objects keep it.
    public func member(_ key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.last { $0.key == key }?.value
    }

    public var string: String? {
        if case .string(let string) = value { return string }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let bool) = value { return bool }
        return nil
    }

    public var number: Double? {
        if case .number(let number) = value { return number }
        return nil
    }

    public var array: [JSONNode]? {
        if case .array(let items) = value { return items }
        return nil
    }

    public var members: [JSONMember]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// How messages name the kind of this value.
    public var kindName: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

public struct JSONMember: Sendable {
    public var key: String
    public var keyRange: SourceRange
    public var value: JSONNode
}

public struct JSONSyntaxError: Error, Sendable {
    public var message: String
    public var position: SourcePosition
}

/// A strict RFC 8259 parser over UTF-8 text: no comments, no trailing commas, no control
/// characters in strings, nesting capped at 512 levels.
public enum JSONDocument {
    /// Where decoded characters `span` of the string literal starting at `start` are in the
    /// source: escapes (`\\n`, `\\u00e9`, a surrogate pair) are one decoded character each.
    /// nil when `start` is not the opening quote of a string.
    public static func sourceRange(ofDecoded span: Range<Int>, inStringAt start: SourcePosition, of file: SourceFile) -> SourceRange? {
        // The literal alone, from its opening quote to its closing one: it may sit far into a
        // minified list's line, which is not read past it.
        var literal: [Unicode.Scalar] = []
        var escaped = false
        for scalar in file.line(start.line, fromColumn: start.column).scalars {
            literal.append(scalar)
            if literal.count == 1 { continue }
            if escaped { escaped = false } else if scalar == "\\" { escaped = true } else if scalar == "\"" { break }
        }
        // `line[i]` stands for column `i + 1` of the line; only the literal's part is read.
        let base = start.column - 1
        let line = ShiftedScalars(scalars: literal, base: base)
        var column = start.column  // 1-based, at the opening quote
        guard !literal.isEmpty, literal[0] == "\"" else { return nil }
        column += 1
        var decoded = 0
        var startColumn: Int?
        while column - 1 < line.count, line[column - 1] != "\"" {
            if decoded == span.lowerBound { startColumn = column }
            if decoded == span.upperBound { break }
            var width = 1
            if line[column - 1] == "\\", column < line.count {
                width = line[column] == "u" ? 6 : 2
                // A surrogate pair decodes to one character.
                if width == 6, column + 6 < line.count, line[column + 5] == "\\", line[column + 6] == "u",
                   let high = UInt32(String(String.UnicodeScalarView(line[(column + 1)..<(column + 5)])), radix: 16), (0xD800...0xDBFF).contains(high) {
                    width = 12
                }
            }
            column += width
            decoded += 1
        }
        guard let startColumn else { return nil }
        return SourceRange(start: SourcePosition(line: start.line, column: startColumn), end: SourcePosition(line: start.line, column: column))
    }

    public static let maximumDepth = 512

    /// Scalars of a line from column `base + 1` on, indexed by 0-based column.
    private struct ShiftedScalars {
        let scalars: [Unicode.Scalar]
        let base: Int
        var count: Int { base + scalars.count }
        subscript(column: Int) -> Unicode.Scalar { scalars[column - base] }
        subscript(columns: Range<Int>) -> ArraySlice<Unicode.Scalar> { scalars[(columns.lowerBound - base)..<(columns.upperBound - base)] }
    }

    /// `skipping`: keys whose array or object values are passed over unread — their strings,
    /// brackets and line breaks followed, nothing built or checked — and stand as an empty
    /// array: for members a reader may not need (a runtime manifest's per-rule sources, 13 MB
    /// for an imported blocklist, when an engine image holds them already).
    public static func parse(_ text: String, skipping: Set<String> = []) -> Result<JSONNode, JSONSyntaxError> {
        parse(bytes: Array(text.utf8), skipping: skipping)
    }

    /// The same from UTF-8 bytes (a file read as they are, not copied into a `String` first).
    public static func parse(bytes: [UInt8], skipping: Set<String> = []) -> Result<JSONNode, JSONSyntaxError> {
        parse(bytes: bytes, in: 0..<bytes.count, startingAt: SourcePosition(line: 1, column: 1), skipping: skipping)
    }

    /// One value among others in a larger text (a HAR entry in a block read from its file):
    /// the bytes in `range`, positions counted on from `start`, where the value sits in the file.
    public static func parse(bytes: [UInt8], in range: Range<Int>, startingAt start: SourcePosition, skipping: Set<String> = []) -> Result<JSONNode, JSONSyntaxError> {
        var parser = Parser(bytes: bytes, index: range.lowerBound, end: range.upperBound, line: start.line, column: start.column)
        parser.skippedKeys = skipping
        do {
            parser.skipWhitespace()
            let node = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            guard parser.atEnd else { throw parser.error("unexpected text after the JSON value") }
            return .success(node)
        } catch let error as JSONSyntaxError {
            return .failure(error)
        } catch {
            return .failure(JSONSyntaxError(message: "\(error)", position: parser.position))
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var index: Int
        /// Where the text ends: the array's end, or the end of a value within it.
        let end: Int
        var line: Int
        var column: Int
        var skippedKeys: Set<String> = []

        var atEnd: Bool { index >= end }
        var position: SourcePosition { SourcePosition(line: line, column: column) }
        var peek: UInt8? { index < end ? bytes[index] : nil }

        func error(_ message: String) -> JSONSyntaxError {
            JSONSyntaxError(message: message, position: position)
        }

        /// Lines break where `SourceFile` breaks them (\n, \r\n, \r, U+0085, U+2028, U+2029),
        /// so a position here is a position in the file's line table: JSON allows the last
        /// three raw inside strings, and a lone \r between tokens.
        mutating func advance() {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x0A where index >= 2 && bytes[index - 2] == 0x0D:
                break  // the \n of \r\n: the \r broke the line
            case 0x0A, 0x0D:
                line += 1
                column = 1
            case 0x85 where index >= 2 && bytes[index - 2] == 0xC2,
                 0xA8 where index >= 3 && bytes[index - 3] == 0xE2 && bytes[index - 2] == 0x80,
                 0xA9 where index >= 3 && bytes[index - 3] == 0xE2 && bytes[index - 2] == 0x80:
                line += 1
                column = 1
            default:
                if byte & 0xC0 != 0x80 { column += 1 }
            }
        }

        mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
        }

        mutating func expect(_ literal: String, _ value: JSONNode.Value, start: SourcePosition) throws -> JSONNode {
            for expected in literal.utf8 {
                guard peek == expected else { throw error("expected '\(literal)'") }
                advance()
            }
            return JSONNode(value: value, range: SourceRange(start: start, end: position))
        }

        mutating func parseValue(depth: Int) throws -> JSONNode {
            guard depth < JSONDocument.maximumDepth else { throw error("the JSON nests deeper than \(JSONDocument.maximumDepth) levels") }
            let start = position
            guard let byte = peek else { throw error("unexpected end of the JSON text") }
            switch byte {
            case UInt8(ascii: "{"): return try parseObject(depth: depth, start: start)
            case UInt8(ascii: "["): return try parseArray(depth: depth, start: start)
            case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), range: SourceRange(start: start, end: position))
            case UInt8(ascii: "t"): return try expect("true", .bool(true), start: start)
            case UInt8(ascii: "f"): return try expect("false", .bool(false), start: start)
            case UInt8(ascii: "n"): return try expect("null", .null, start: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber(start: start)
            default: throw error("unexpected character '\(Unicode.Scalar(byte).escaped(asASCII: true))'")
            }
        }

        mutating func parseObject(depth: Int, start: SourcePosition) throws -> JSONNode {
            advance()
            var members: [JSONMember] = []
            skipWhitespace()
            if peek == UInt8(ascii: "}") {
                advance()
                return JSONNode(value: .object(members), range: SourceRange(start: start, end: position))
            }
            while true {
                skipWhitespace()
                let keyStart = position
                guard peek == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let key = try parseString()
                let keyRange = SourceRange(start: keyStart, end: position)
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
                advance()
                skipWhitespace()
                let value = skippedKeys.contains(key) && (peek == UInt8(ascii: "[") || peek == UInt8(ascii: "{"))
                    ? try skipContainer() : try parseValue(depth: depth + 1)
                members.append(JSONMember(key: key, keyRange: keyRange, value: value))
                skipWhitespace()
                if peek == UInt8(ascii: ",") { advance(); continue }
                guard peek == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
                advance()
                return JSONNode(value: .object(members), range: SourceRange(start: start, end: position))
            }
        }

        /// Passes over the array or object at `index` to its closing bracket, keeping `line` and
        /// `column` right (the same line breaks as `advance`), in one tight loop.
        mutating func skipContainer() throws -> JSONNode {
            let start = position
            var depth = 0, inString = false
            var lineStart = -1
            var cursor = index
            var lines = 0
            let count = end
            try bytes.withUnsafeBufferPointer { bytes in
                while cursor < count {
                    let byte = bytes[cursor]
                    if inString {
                        if byte == 0x5C { cursor += 2; continue }
                        if byte == 0x22 { inString = false }
                    } else if byte == 0x22 {
                        inString = true
                    } else if byte == 0x5B || byte == 0x7B {
                        depth += 1
                    } else if byte == 0x5D || byte == 0x7D {
                        depth -= 1
                        if depth == 0 { cursor += 1; break }
                    }
                    if byte == 0x0A || (byte == 0x0D && (cursor + 1 == count || bytes[cursor + 1] != 0x0A)) {
                        lines += 1
                        lineStart = cursor + 1
                    } else if byte == 0xC2 || byte == 0xE2, cursor + 1 < count {
                        let next = bytes[cursor + 1]
                        if byte == 0xC2 ? next == 0x85 : next == 0x80 && cursor + 2 < count && (bytes[cursor + 2] == 0xA8 || bytes[cursor + 2] == 0xA9) {
                            lines += 1
                            lineStart = cursor + (byte == 0xC2 ? 2 : 3)
                        }
                    }
                    cursor += 1
                }
                guard depth == 0 else { throw error("unexpected end of the JSON text") }
            }
            let from = lineStart >= 0 ? lineStart : index
            let columns = bytes[from..<cursor].reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
            line += lines
            column = lineStart >= 0 ? 1 + columns : column + columns
            index = cursor
            return JSONNode(value: .array([]), range: SourceRange(start: start, end: position))
        }

        mutating func parseArray(depth: Int, start: SourcePosition) throws -> JSONNode {
            advance()
            var items: [JSONNode] = []
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
                advance()
                return JSONNode(value: .array(items), range: SourceRange(start: start, end: position))
            }
            while true {
                skipWhitespace()
                items.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                if peek == UInt8(ascii: ",") { advance(); continue }
                guard peek == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
                advance()
                return JSONNode(value: .array(items), range: SourceRange(start: start, end: position))
            }
        }

        mutating func parseString() throws -> String {
            advance()  // the opening quote
            // Most strings have no escape: one scan, one string made from the bytes.
            let start = index
            var scan = index
            var columns = 0
            while scan < end {
                let byte = bytes[scan]
                if byte == UInt8(ascii: "\"") {
                    let text = bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<scan]), as: UTF8.self) }
                    index = scan + 1
                    column += columns + 1
                    return text
                }
                // Escapes, control characters and the lead bytes of U+0085, U+2028 and U+2029
                // (line breaks for positions) take the careful path.
                if byte == UInt8(ascii: "\\") || byte < 0x20 || byte == 0xC2 || byte == 0xE2 { break }
                if byte & 0xC0 != 0x80 { columns += 1 }
                scan += 1
            }
            // The careful path: decoded bytes gathered in one buffer, one string made at the
            // end (a blocklist's url-filters nearly all escape a dot).
            var decoded: [UInt8] = []
            decoded.reserveCapacity(scan - start + 16)
            decoded.append(contentsOf: bytes[start..<scan])
            column += columns
            index = scan
            while true {
                guard let byte = peek else { throw error("unterminated string") }
                switch byte {
                case UInt8(ascii: "\""):
                    advance()
                    return String(decoding: decoded, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    advance()
                    guard let escape = peek else { throw error("unterminated string") }
                    if let simple = Self.simpleEscape(escape) {
                        advance()
                        decoded.append(simple)
                    } else if escape == UInt8(ascii: "u") {
                        advance()
                        var code = try hex4()
                        if (0xD800...0xDBFF).contains(code), peek == UInt8(ascii: "\\"), index + 1 < end, bytes[index + 1] == UInt8(ascii: "u") {
                            let saved = (index, line, column)
                            advance(); advance()
                            let low = try hex4()
                            if (0xDC00...0xDFFF).contains(low) {
                                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                (index, line, column) = saved
                            }
                        }
                        // A lone surrogate cannot live in a Swift string; it becomes U+FFFD.
                        decoded.append(contentsOf: UTF8.encode(Unicode.Scalar(code) ?? "\u{FFFD}")!)
                    } else {
                        throw error("invalid escape '\\\(Unicode.Scalar(escape).escaped(asASCII: true))'")
                    }
                default:
                    guard byte >= 0x20 else { throw error("a control character must be escaped inside a string") }
                    // A run of plain bytes up to the next escape, quote or line-breaking lead
                    // byte, copied at once: an editor's message holds a whole policy, a
                    // `\n` on every line.
                    var run = index
                    var columns = 0
                    while run < end {
                        let next = bytes[run]
                        if next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") || next < 0x20 || next == 0xC2 || next == 0xE2 { break }
                        if next & 0xC0 != 0x80 { columns += 1 }
                        run += 1
                    }
                    if run == index {
                        // A lead byte that may begin U+0085, U+2028 or U+2029: the character's
                        // bytes one at a time, so its last one breaks the line.
                        decoded.append(byte)
                        advance()
                        while let next = peek, next & 0xC0 == 0x80 {
                            decoded.append(next)
                            advance()
                        }
                    } else {
                        decoded.append(contentsOf: bytes[index..<run])
                        column += columns
                        index = run
                    }
                }
            }
        }

        /// The byte a one-letter escape stands for (`\n` → 0x0A), or nil.
        static func simpleEscape(_ letter: UInt8) -> UInt8? {
            switch letter {
            case UInt8(ascii: "\""): return UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): return UInt8(ascii: "\\")
            case UInt8(ascii: "/"): return UInt8(ascii: "/")
            case UInt8(ascii: "b"): return 0x08
            case UInt8(ascii: "f"): return 0x0C
            case UInt8(ascii: "n"): return 0x0A
            case UInt8(ascii: "r"): return 0x0D
            case UInt8(ascii: "t"): return 0x09
            default: return nil
            }
        }

        func hexDigit(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }

        mutating func hex4() throws -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = peek, let digit = hexDigit(byte) else { throw error("expected four hexadecimal digits after \\u") }
                value = value * 16 + digit
                advance()
            }
            return value
        }

        mutating func parseNumber(start: SourcePosition) throws -> JSONNode {
            let begin = index
            if peek == UInt8(ascii: "-") { advance() }
            guard let first = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw error("expected a digit") }
            advance()
            if first != UInt8(ascii: "0") { while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { advance() } }
            if peek == UInt8(ascii: ".") {
                advance()
                guard let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw error("expected a digit after '.'") }
                while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { advance() }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                advance()
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { advance() }
                guard let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw error("expected a digit in the exponent") }
                while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { advance() }
            }
            let text = String(decoding: bytes[begin..<index], as: UTF8.self)
            guard let number = Double(text) else { throw error("invalid number") }
            return JSONNode(value: .number(number), range: SourceRange(start: start, end: position))
        }
    }
}
