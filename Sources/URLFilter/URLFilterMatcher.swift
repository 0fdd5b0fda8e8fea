/// Many url-filters run on one URL at once: which of them match it, in index order.
///
/// Each filter is indexed by the longest literal every match must contain; one Aho–Corasick
/// pass over the lowercased URL finds the literals present, and only those filters (plus the
/// few without a usable literal) run their automata. Filters that match everything (WebKit's
/// universal actions) match every URL. Time is linear in the URL for the scan, and linear per
/// candidate filter; no backtracking anywhere.
public struct URLFilterMatcher: Sendable {
    private var filters: [CompiledURLFilter?] = []
    private var universal: [Int] = []
    private var unindexed: [Int] = []
    private var index: AhoCorasick
    /// Ids of each literal; literals shared by several filters are stored once.
    private var filtersOfLiteral: [[Int32]] = []

    /// Literals shorter than this occur in too many URLs to be worth indexing.
    static let minimumLiteral = 3

    /// `filters[i]` is filter i: parsed, matching everything, or refused (never matches).
    public init(_ results: [URLFilterParseResult]) {
        var literalIDs: [[UInt8]: Int] = [:]
        var literals: [(literal: [UInt8], id: Int)] = []
        for (position, result) in results.enumerated() {
            switch result {
            case .matchesEverything:
                universal.append(position)
                filters.append(nil)
            case .rejected:
                filters.append(nil)
            case .filter(let parsed):
                filters.append(CompiledURLFilter(parsed))
                let literal = RequiredLiteral.longest(in: parsed)
                guard literal.count >= Self.minimumLiteral else {
                    unindexed.append(position)
                    continue
                }
                if let id = literalIDs[literal] {
                    filtersOfLiteral[id].append(Int32(position))
                } else {
                    literalIDs[literal] = filtersOfLiteral.count
                    literals.append((literal, filtersOfLiteral.count))
                    filtersOfLiteral.append([Int32(position)])
                }
            }
        }
        index = AhoCorasick(literals)
    }

    public var count: Int { filters.count }

    /// The indices of the filters that match `url`, ascending.
    public func matches(_ url: String) -> [Int] {
        var url = url
        return url.withUTF8 { matches($0) }
    }

    public func matches(_ url: UnsafeBufferPointer<UInt8>) -> [Int] {
        var candidates = universal + unindexed
        if !index.isEmpty {
            let lowered = [UInt8](unsafeUninitializedCapacity: url.count) { buffer, count in
                for (offset, byte) in url.enumerated() { buffer[offset] = RequiredLiteral.lowercase(byte) }
                count = url.count
            }
            lowered.withUnsafeBufferPointer { text in
                index.scan(text) { id in candidates.append(contentsOf: filtersOfLiteral[id].lazy.map(Int.init)) }
            }
        }
        candidates.sort()
        var matched: [Int] = []
        var previous = -1
        for candidate in candidates where candidate != previous {
            previous = candidate
            if let filter = filters[candidate] {
                if filter.matches(url) { matched.append(candidate) }
            } else {
                matched.append(candidate)  // universal
            }
        }
        return matched
    }
}
