import Foundation

/// A HAR entry read without building its tree: the whole text checked as `JSONDocument` checks
/// it, and only the five strings a trace line needs kept, as byte ranges. A browser's entry is
/// about a kilobyte of headers, timings and sizes; building nodes, strings and numbers for all
/// of it took four fifths of reading a capture.
///
/// It vouches only for what it is sure of: anything unusual — a key or a wanted value with an
/// escape, a wanted member that is not a string or an object, nesting past 500 levels, any
/// syntax error — returns nil, and the entry is parsed in full (which finds the error, with its
/// position, or reads the unusual entry right). Never less strict than `JSONDocument`.
struct HAREntrySkim {
    /// The entry's members a trace line reads; with duplicates, the last, as `JSONNode.member`.
    struct Fields {
        var url: Range<Int>?
        var method: Range<Int>?
        var pageref: Range<Int>?
        var resourceType: Range<Int>?
        var mimeType: Range<Int>?
        /// The response's `status` (a number's bytes) and `redirectURL`: a document's redirect.
        var status: Range<Int>?
        var redirectURL: Range<Int>?
    }

    /// Where a member's value is read: the objects whose members are kept.
    private enum Level {
        case entry, request, response, content, other
    }

    /// The keys that matter.
    private enum Key {
        case pageref, resourceType, request, response, url, method, content, mimeType, status, redirectURL
    }

    private static let keys: [(name: StaticString, key: Key)] = [
        ("pageref", .pageref), ("_resourceType", .resourceType), ("request", .request), ("response", .response),
        ("url", .url), ("method", .method), ("content", .content), ("mimeType", .mimeType), ("status", .status), ("redirectURL", .redirectURL),
    ]

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index: Int
    private let end: Int
    private var fields = Fields()

    private init(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        index = range.lowerBound
        end = range.upperBound
    }

    /// The fields of the entry in `range`, or nil where the full parse must read it.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Fields? {
        var skim = HAREntrySkim(bytes: bytes, range: range)
        guard skim.peek == UInt8(ascii: "{"), skim.object(depth: 0, level: .entry) else { return nil }
        skim.skipWhitespace()
        guard skim.index == skim.end else { return nil }
        return skim.fields
    }

    private var peek: UInt8? { index < end ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < end {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            index += 1
        }
    }

    private mutating func value(depth: Int) -> Bool {
        guard depth < 500, let byte = peek else { return false }
        switch byte {
        case UInt8(ascii: "{"): return object(depth: depth, level: .other)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    private mutating func object(depth: Int, level: Level) -> Bool {
        guard depth < 500 else { return false }
        index += 1  // {
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\""), let key = string(), !key.escaped else { return false }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            guard member(key.range, of: level, depth: depth) else { return false }
            skipWhitespace()
            guard let byte = peek else { return false }
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            return byte == UInt8(ascii: "}")
        }
    }

    /// A member's value: a wanted string kept, a wanted object read at its level, any other
    /// value checked and passed over.
    private mutating func member(_ key: Range<Int>, of level: Level, depth: Int) -> Bool {
        switch (level, level == .other ? nil : keyName(key)) {
        case (.entry, .pageref): return wantedString(\.pageref)
        case (.entry, .resourceType): return wantedString(\.resourceType)
        case (.request, .url): return wantedString(\.url)
        case (.request, .method): return wantedString(\.method)
        case (.content, .mimeType): return wantedString(\.mimeType)
        case (.response, .redirectURL): return wantedString(\.redirectURL)
        case (.response, .status):
            let start = index
            guard peek != UInt8(ascii: "\""), peek != UInt8(ascii: "{"), peek != UInt8(ascii: "["), value(depth: depth + 1) else { return false }
            fields.status = start..<index
            return true
        case (.entry, .request):
            (fields.url, fields.method) = (nil, nil)  // the last request is the one read
            return peek == UInt8(ascii: "{") && object(depth: depth + 1, level: .request)
        case (.entry, .response):
            (fields.mimeType, fields.status, fields.redirectURL) = (nil, nil, nil)
            return peek == UInt8(ascii: "{") && object(depth: depth + 1, level: .response)
        case (.response, .content):
            fields.mimeType = nil
            return peek == UInt8(ascii: "{") && object(depth: depth + 1, level: .content)
        default:
            return value(depth: depth + 1)
        }
    }

    /// The key that matters, told apart by length and bytes without making a string.
    private func keyName(_ key: Range<Int>) -> Key? {
        for (name, known) in Self.keys where name.utf8CodeUnitCount == key.count {
            if memcmp(name.utf8Start, bytes.baseAddress! + key.lowerBound, key.count) == 0 { return known }
        }
        return nil
    }

    private mutating func wantedString(_ field: WritableKeyPath<Fields, Range<Int>?>) -> Bool {
        guard peek == UInt8(ascii: "\""), let text = string(), !text.escaped else { return false }
        fields[keyPath: field] = text.range
        return true
    }

    /// A string's content (between its quotes) and whether it has an escape; nil where
    /// `JSONDocument` would refuse it.
    private mutating func string() -> (range: Range<Int>, escaped: Bool)? {
        index += 1  // "
        let start = index
        var escaped = false
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return (start..<(index - 1), escaped)
            }
            if byte < 0x20 { return nil }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                guard index + 1 < end else { return nil }
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                case UInt8(ascii: "u"):
                    guard index + 5 < end else { return nil }
                    for offset in 2...5 where !Self.isHexDigit(bytes[index + offset]) { return nil }
                    index += 6
                default:
                    return nil
                }
                continue
            }
            index += 1
        }
        return nil
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    private mutating func array(depth: Int) -> Bool {
        index += 1  // [
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard value(depth: depth + 1) else { return false }
            skipWhitespace()
            guard let byte = peek else { return false }
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            return byte == UInt8(ascii: "]")
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - index >= count, memcmp(word.utf8Start, bytes.baseAddress! + index, count) == 0 else { return false }
        index += count
        return true
    }

    /// JSON's number grammar, as `JSONDocument.parseNumber` reads it.
    private mutating func number() -> Bool {
        if peek == UInt8(ascii: "-") { index += 1 }
        guard let first = peek, isDigit(first) else { return false }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard let byte = peek, isDigit(byte) else { return false }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek, isDigit(byte) else { return false }
            skipDigits()
        }
        return true
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = peek, isDigit(byte) { index += 1 }
    }
}
