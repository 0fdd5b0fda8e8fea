/// The XML that property lists, storyboards and xibs are written in, read as a flat stream of
/// tags and text with byte offsets: enough for both readers, no DOM, and every malformed
/// input ends in a problem at its offset rather than a crash or a hang (the fuzz target
/// `FuzzAppFiles` holds it to that). Comments, processing instructions, `<!DOCTYPE>` and
/// CDATA are understood and skipped (CDATA's text is kept).
struct XMLScanner {
    struct Attribute {
        var name: String
        var value: String
        /// Offset of the value's first byte (after the quote).
        var offset: Int
    }

    enum Event {
        case start(name: String, attributes: [Attribute], selfClosing: Bool, offset: Int)
        case end(name: String, offset: Int)
        case text(String, offset: Int)
    }

    struct Failure: Error {
        var message: String
        var offset: Int
    }

    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Every event in order, or the first problem.
    static func events(of bytes: [UInt8]) -> Result<[Event], Failure> {
        var scanner = XMLScanner(bytes)
        var events: [Event] = []
        do {
            while let event = try scanner.next() { events.append(event) }
            return .success(events)
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(message: "unreadable XML", offset: scanner.index))
        }
    }

    mutating func next() throws -> Event? {
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
                let raw = bytes[start..<index]
                if raw.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { continue }
                return .text(try Self.decodeEntities(raw, at: start), offset: start)
            }
            if matches("<!--") {
                try skip(past: "-->", what: "a comment")
                continue
            }
            if matches("<![CDATA[") {
                let start = index + 9
                try skip(past: "]]>", what: "a CDATA section")
                return .text(String(decoding: bytes[start..<(index - 3)], as: UTF8.self), offset: start)
            }
            if matches("<?") {
                try skip(past: "?>", what: "a processing instruction")
                continue
            }
            if matches("<!") {
                try skipDeclaration()
                continue
            }
            return try tag()
        }
        return nil
    }

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { literalBytes in
            for offset in 0..<count where bytes[index + offset] != literalBytes[offset] { return false }
            return true
        }
    }

    private mutating func skip(past terminator: StaticString, what: String) throws {
        let start = index
        while index < bytes.count {
            if matches(terminator) {
                index += terminator.utf8CodeUnitCount
                return
            }
            index += 1
        }
        throw Failure(message: "\(what) is never closed", offset: start)
    }

    /// `<!DOCTYPE plist PUBLIC "…" "…">`, possibly with an internal subset in brackets.
    private mutating func skipDeclaration() throws {
        let start = index
        var depth = 0
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
            } else if byte == UInt8(ascii: ">"), depth <= 0 {
                return
            }
        }
        throw Failure(message: "a declaration is never closed", offset: start)
    }

    private mutating func tag() throws -> Event {
        let start = index
        index += 1  // <
        let closing = index < bytes.count && bytes[index] == UInt8(ascii: "/")
        if closing { index += 1 }
        let name = readName()
        guard !name.isEmpty else { throw Failure(message: "a '<' that starts no tag", offset: start) }
        if closing {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw Failure(message: "the closing tag </\(name)> is not closed with '>'", offset: start) }
            index += 1
            return .end(name: name, offset: start)
        }
        var attributes: [Attribute] = []
        while true {
            skipSpace()
            guard index < bytes.count else { throw Failure(message: "the tag <\(name)> is never closed", offset: start) }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return .start(name: name, attributes: attributes, selfClosing: false, offset: start)
            }
            if bytes[index] == UInt8(ascii: "/") {
                index += 1
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw Failure(message: "'/' inside the tag <\(name)> is not followed by '>'", offset: index - 1) }
                index += 1
                return .start(name: name, attributes: attributes, selfClosing: true, offset: start)
            }
            let attributeStart = index
            let attribute = readName()
            guard !attribute.isEmpty else { throw Failure(message: "an unexpected character in the tag <\(name)>", offset: index) }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw Failure(message: "the attribute '\(attribute)' has no value", offset: attributeStart) }
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw Failure(message: "the value of '\(attribute)' is not quoted", offset: index)
            }
            let quote = bytes[index]
            index += 1
            let valueStart = index
            while index < bytes.count, bytes[index] != quote { index += 1 }
            guard index < bytes.count else { throw Failure(message: "the value of '\(attribute)' is never closed", offset: valueStart - 1) }
            let value = try Self.decodeEntities(bytes[valueStart..<index], at: valueStart)
            index += 1
            attributes.append(Attribute(name: attribute, value: value, offset: valueStart))
        }
    }

    private mutating func readName() -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let isNameByte = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") || byte >= 0x80
            guard isNameByte else { break }
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` and `&#xN;`.
    static func decodeEntities(_ raw: ArraySlice<UInt8>, at offset: Int) throws -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var result = ""
        var index = raw.startIndex
        while index < raw.endIndex {
            guard raw[index] == UInt8(ascii: "&") else {
                let start = index
                while index < raw.endIndex, raw[index] != UInt8(ascii: "&") { index += 1 }
                result += String(decoding: raw[start..<index], as: UTF8.self)
                continue
            }
            guard let semicolon = raw[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                throw Failure(message: "an '&' that starts no entity (write '&amp;')", offset: offset + (index - raw.startIndex))
            }
            let entity = String(decoding: raw[(index + 1)..<semicolon], as: UTF8.self)
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let scalar: Unicode.Scalar?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                } else {
                    scalar = nil
                }
                guard let scalar else { throw Failure(message: "'&\(entity);' is not an XML entity", offset: offset + (index - raw.startIndex)) }
                result.unicodeScalars.append(scalar)
            }
            index = semicolon + 1
        }
        return result
    }
}
