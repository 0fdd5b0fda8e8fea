/// Many url-filters run on one URL at once: which of them match it, in index order.
///
/// Each filter is indexed by the longest literal every match must contain; one Aho–Corasick
/// pass over the lowercased URL finds the literals present, and only those filters (plus the
/// few without a usable literal) run their automata. Filters that match everything (WebKit's
/// universal actions) match every URL. Time is linear in the URL for the scan, and linear per
/// candidate filter; no backtracking anywhere.
public struct URLFilterMatcher: Sendable {
    /// Distinct filters, each compiled once, with the positions that hold it.
    private var unique: [CompiledURLFilter] = []
    private var positionsOfUnique: [[Int32]] = []
    private var universal: [Int] = []
    private var unindexed: [Int32] = []
    private var index: AhoCorasick
    /// Distinct filters of each literal.
    private var uniquesOfLiteral: [[Int32]] = []
    private var positionCount = 0

    /// Literals shorter than this occur in too many URLs to be worth indexing.
    static let minimumLiteral = 3

    /// `filters[i]` is filter i: parsed, matching everything, or refused (never matches).
    /// Identical filters (a blocklist repeats many) are compiled and run once.
    public init(_ results: [URLFilterParseResult]) {
        positionCount = results.count
        var uniqueIDs: [ParsedURLFilter: Int] = [:]
        var literalIDs: [[UInt8]: Int] = [:]
        var literals: [(literal: [UInt8], id: Int)] = []
        for (position, result) in results.enumerated() {
            switch result {
            case .matchesEverything:
                universal.append(position)
            case .rejected:
                continue
            case .filter(let parsed):
                if let id = uniqueIDs[parsed] {
                    positionsOfUnique[id].append(Int32(position))
                    continue
                }
                let id = unique.count
                uniqueIDs[parsed] = id
                unique.append(CompiledURLFilter(parsed))
                positionsOfUnique.append([Int32(position)])
                let literal = RequiredLiteral.longest(in: parsed)
                guard literal.count >= Self.minimumLiteral else {
                    unindexed.append(Int32(id))
                    continue
                }
                if let literalID = literalIDs[literal] {
                    uniquesOfLiteral[literalID].append(Int32(id))
                } else {
                    literalIDs[literal] = uniquesOfLiteral.count
                    literals.append((literal, uniquesOfLiteral.count))
                    uniquesOfLiteral.append([Int32(id)])
                }
            }
        }
        index = AhoCorasick(literals)
    }

    public var count: Int { positionCount }

    /// The indices of the filters that match `url`, ascending.
    public func matches(_ url: String) -> [Int] {
        var url = url
        return url.withUTF8 { matches($0) }
    }

    public func matches(_ url: UnsafeBufferPointer<UInt8>) -> [Int] {
        var candidates = unindexed
        if !index.isEmpty {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: url.count) { lowered in
                for (offset, byte) in url.enumerated() { lowered[offset] = RequiredLiteral.lowercase(byte) }
                index.scan(UnsafeBufferPointer(lowered)) { id in candidates.append(contentsOf: uniquesOfLiteral[id]) }
            }
        }
        var matched = universal
        if !candidates.isEmpty {
            candidates.sort()
            var previous: Int32 = -1
            for candidate in candidates where candidate != previous {
                previous = candidate
                if unique[Int(candidate)].matches(url) {
                    matched.append(contentsOf: positionsOfUnique[Int(candidate)].lazy.map(Int.init))
                }
            }
            matched.sort()
        }
        return matched
    }
}
