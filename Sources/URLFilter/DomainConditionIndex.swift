/// The regexes WebKit makes of `if-domain` and `unless-domain` entries — `example.com` becomes
/// `[a-z][a-z+.-]*:\/\/example\.com[:/]`, `*example.com` becomes
/// `[a-z][a-z+.-]*:\/\/([^/]*\.)*example\.com[:/]` (`ContentExtensionParser`'s
/// `getDomainList`) — looked up by name instead of compiled and scanned for. A real list has
/// thousands of them (EasyList: 9,000 distinct domains), matched against each new page.
///
/// Exact for every URL because it follows the regex: it is not anchored, so it may start at any
/// `://` that has a letter before it with only letters, `+`, `.` and `-` between; the name then
/// starts right after the `//` or, with subdomains, after any dot before the next `/`; and it
/// ends just before a `:` or `/`.
struct DomainConditionIndex: Sendable {
    private static func terms(_ pattern: String) -> [Term] {
        guard case .filter(let parsed) = URLFilterParser.parse(pattern) else { return [] }
        return Array(parsed.terms.dropLast())
    }

    /// The two prefixes, as the parser builds them (an unanchored filter's leading `.*` too).
    private static let exactPrefix = terms("[a-z][a-z+.-]*:\\/\\/x")
    private static let subdomainPrefix = terms("[a-z][a-z+.-]*:\\/\\/([^/]*\\.)*x")
    /// `[:/]`, the whole tail.
    private static let tail: Term? = {
        guard case .filter(let parsed) = URLFilterParser.parse("x[:/]") else { return nil }
        return parsed.terms.last
    }()

    /// The lowercase domain of a case-insensitive filter of one of the two shapes, and whether
    /// it takes subdomains.
    static func split(_ filter: ParsedURLFilter) -> (name: [UInt8], subdomains: Bool)? {
        guard !filter.hasBeginningOfLineAssertion, !filter.isCaseSensitive, let tail, filter.terms.last == tail else { return nil }
        for (prefix, subdomains) in [(subdomainPrefix, true), (exactPrefix, false)] where !prefix.isEmpty && filter.terms.starts(with: prefix) {
            let middle = filter.terms[prefix.count..<(filter.terms.count - 1)]
            var name: [UInt8] = []
            for term in middle {
                guard let byte = HostAnchoredIndex.nameByte(term) else { return nil }
                name.append(byte)
            }
            guard !name.isEmpty else { return nil }
            return (name, subdomains)
        }
        return nil
    }

    struct Payload: BitwiseCopyable, Sendable {
        var id: Int32
        /// 1: the domain's subdomains too. A byte, not a `Bool`: an image's bytes may hold anything.
        var subdomains: UInt8
        /// Written as zeros: an image's bytes must not depend on what memory held before.
        var padding: (UInt8, UInt8, UInt8) = (0, 0, 0)
    }

    private let table: NameTable<Payload>

    var isEmpty: Bool { table.isEmpty }

    static func write(_ splits: [(id: Int32, name: [UInt8], subdomains: Bool)], into writer: inout ImageWriter) {
        NameTable.write(splits.map { ($0.name, Payload(id: $0.id, subdomains: $0.subdomains ? 1 : 0)) }, into: &writer)
    }

    init(reading reader: inout ImageReader, filterCount: Int) throws(ImageError) {
        table = try NameTable(reading: &reader, "the domain index")
        for payload in table.payloads.buffer where payload.id < 0 || Int(payload.id) >= filterCount {
            throw ImageError("the domain index names filter \(payload.id) of \(filterCount)")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    /// The filters that match `url` (unsorted, maybe repeated).
    func lookUp(_ url: UnsafeBufferPointer<UInt8>, matched: inout [Int32]) {
        guard !table.isEmpty, url.count >= 4 else { return }
        // The filter is not anchored, so it runs from the URL's first byte: NUL or a byte
        // beyond ASCII ends every match that has not ended before it.
        let limit = url.firstIndex { $0 == 0 || $0 >= 0x80 } ?? url.count
        var colon = 1
        while colon + 2 < limit {
            defer { colon += 1 }
            guard url[colon] == 0x3A, url[colon + 1] == 0x2F, url[colon + 2] == 0x2F else { continue }
            // `[a-z][a-z+.-]*` right before: a letter, then only letters, `+`, `.`, `-`.
            var before = colon - 1
            var hasScheme = false
            while before >= 0 {
                let byte = url[before]
                if Self.isLetter(byte) { hasScheme = true; break }
                guard byte == 0x2B || byte == 0x2E || byte == 0x2D else { break }
                before -= 1
            }
            guard hasScheme else { continue }
            let start = colon + 3
            var position = start
            // `([^/]*\.)*` never steps over `/`, NUL or a byte beyond ASCII.
            while position < url.count, url[position] != 0x2F {
                if position == start || url[position - 1] == 0x2E {
                    var stop = position
                    while stop < url.count, HostAnchoredIndex.isNameByte(url[stop]) { stop += 1 }
                    if stop > position, stop < limit, url[stop] == 0x3A || url[stop] == 0x2F {
                        let isFirst = position == start
                        table.find(url, position..<stop) { filter in
                            if filter.subdomains != 0 || isFirst { matched.append(filter.id) }
                        }
                    }
                }
                if position >= limit { break }
                position += 1
            }
        }
    }
}
