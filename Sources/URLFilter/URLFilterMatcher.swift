/// Many url-filters run on one URL at once: which of them match it, in index order.
///
/// Each filter is indexed by the longest literal every match must contain; one Aho–Corasick
/// pass over the lowercased URL finds the literals present, and only those filters (plus the
/// few without a usable literal) run their automata. Filters that match everything (WebKit's
/// universal actions) match every URL. Time is linear in the URL for the scan, and linear per
/// candidate filter; no backtracking anywhere.
///
/// Filters anchored at a host name (`^[^:]+://+([^/]+\.)?ads\.example\.com[/:]`, nine in ten
/// of a real blocklist) are looked up by name instead (`HostAnchoredIndex`); most are decided
/// by the byte after the name and never need an automaton.
///
/// The regexes WebKit makes of `if-domain` entries are looked up by name too
/// (`DomainConditionIndex`).
///
/// Identical filters (a blocklist repeats many) are compiled and run once: each distinct
/// filter has an id, and `matchingFilters` answers in ids, so a caller that groups positions
/// its own way (by condition, say) need not walk every position of a filter that matched.
public struct URLFilterMatcher: Sendable {
    /// Distinct filters, each compiled once; nil for the universal filter and for host-anchored
    /// filters that their name and next byte decide.
    private var unique: [CompiledURLFilter?] = []
    private var positionsOfFilter: [[Int32]] = []
    /// The id all filters that match everything share, the last id.
    public private(set) var universalID: Int32?
    private var unindexed: [Int32] = []
    private var index: AhoCorasick
    private var hosts: HostAnchoredIndex
    private var domains: DomainConditionIndex
    /// Distinct filters of each literal.
    private var filtersOfLiteral: [[Int32]] = []
    /// Per position: its distinct filter's id, or -1 for a refused filter (which never matches).
    public private(set) var filterOfPosition: [Int32] = []

    /// Literals shorter than this occur in too many URLs to be worth indexing.
    static let minimumLiteral = 3

    /// `filters[i]` is filter i: parsed, matching everything, or refused (never matches).
    /// `compile` turns the distinct filters into automata; a caller with many can spread that
    /// over its cores (this module stays free of any concurrency library).
    ///
    /// `identities`, when given, says which filters are the same (equal numbers for equal
    /// filters, as a caller that deduplicated their texts knows), so the matcher need not hash
    /// parsed filters to find out.
    public init(_ results: consuming [URLFilterParseResult], identities: [Int]? = nil, compile: ([ParsedURLFilter]) -> [CompiledURLFilter] = { $0.map(CompiledURLFilter.init) }) {
        var toCompile: [ParsedURLFilter] = []
        var uniqueIDs: [ParsedURLFilter: Int32] = [:]
        var idOfIdentity: [Int: Int32] = [:]
        var literalIDs: [[UInt8]: Int] = [:]
        var literals: [(literal: [UInt8], id: Int)] = []
        var universal: [Int32] = []
        var anchored: [(id: Int32, split: HostAnchoredIndex.Split)] = []
        var domainFilters: [(id: Int32, name: [UInt8], subdomains: Bool)] = []
        var needsAutomaton: [Bool] = []
        filterOfPosition.reserveCapacity(results.count)
        for position in results.indices {
            // Each parsed filter is let go once it is indexed: a real list's parsed terms
            // outweigh everything the matcher keeps.
            let result = results[position]
            results[position] = .matchesEverything
            switch result {
            case .matchesEverything:
                universal.append(Int32(position))
                filterOfPosition.append(-2)
            case .rejected:
                filterOfPosition.append(-1)
            case .filter(let parsed):
                if let id = identities.map({ idOfIdentity[$0[position]] }) ?? uniqueIDs[parsed] {
                    positionsOfFilter[Int(id)].append(Int32(position))
                    filterOfPosition.append(id)
                    continue
                }
                let id = Int32(positionsOfFilter.count)
                if let identities { idOfIdentity[identities[position]] = id } else { uniqueIDs[parsed] = id }
                positionsOfFilter.append([Int32(position)])
                filterOfPosition.append(id)
                // Only filters that must run keep their terms, to be compiled.
                if let split = HostAnchoredIndex.split(parsed) {
                    anchored.append((id, split))
                    needsAutomaton.append(!split.isWholeTail)
                    if !split.isWholeTail { toCompile.append(parsed) }
                    continue
                }
                if let domain = DomainConditionIndex.split(parsed) {
                    domainFilters.append((id, domain.name, domain.subdomains))
                    needsAutomaton.append(false)
                    continue
                }
                needsAutomaton.append(true)
                toCompile.append(parsed)
                let literal = RequiredLiteral.best(in: parsed)
                guard literal.count >= Self.minimumLiteral else {
                    unindexed.append(id)
                    continue
                }
                if let literalID = literalIDs[literal] {
                    filtersOfLiteral[literalID].append(id)
                } else {
                    literalIDs[literal] = filtersOfLiteral.count
                    literals.append((literal, filtersOfLiteral.count))
                    filtersOfLiteral.append([id])
                }
            }
        }
        if !universal.isEmpty {
            let id = Int32(positionsOfFilter.count)
            universalID = id
            positionsOfFilter.append(universal)
            for position in universal { filterOfPosition[Int(position)] = id }
        }
        index = AhoCorasick(literals)
        hosts = HostAnchoredIndex(anchored)
        domains = DomainConditionIndex(domainFilters)
        let compiled = compile(toCompile)
        toCompile = []
        var next = compiled.makeIterator()
        unique = needsAutomaton.map { $0 ? next.next() : nil }
    }

    public var count: Int { filterOfPosition.count }

    /// How many distinct filters there are; ids run from 0 to this.
    public var filterCount: Int { positionsOfFilter.count }

    /// The positions that hold a distinct filter, ascending.
    public func positions(ofFilter id: Int32) -> [Int32] { positionsOfFilter[Int(id)] }

    /// The indices of the filters that match `url`, ascending.
    public func matches(_ url: String) -> [Int] {
        var url = url
        return url.withUTF8 { matches($0) }
    }

    public func matches(_ url: UnsafeBufferPointer<UInt8>) -> [Int] {
        var matched: [Int] = []
        for id in matchingFilters(url) { matched.append(contentsOf: positionsOfFilter[Int(id)].lazy.map(Int.init)) }
        matched.sort()
        return matched
    }

    /// The ids of the distinct filters that match `url`, ascending; the universal filter's
    /// last, unless a caller that handles it on its own leaves it out.
    public func matchingFilters(_ url: UnsafeBufferPointer<UInt8>, includingUniversal: Bool = true) -> [Int32] {
        var matched: [Int32] = []
        var scratch: [Int32] = []
        matchingFilters(url, into: &matched, scratch: &scratch)
        if includingUniversal, let universalID { matched.append(universalID) }
        return matched
    }

    /// The ids of the distinct filters other than the universal one that match `url`,
    /// ascending, into `matched`; `scratch` is working space. Both keep their capacity from
    /// call to call, so a caller that reuses them matches without allocating.
    public func matchingFilters(_ url: UnsafeBufferPointer<UInt8>, into matched: inout [Int32], scratch candidates: inout [Int32]) {
        matched.removeAll(keepingCapacity: true)
        candidates.removeAll(keepingCapacity: true)
        candidates += unindexed
        hosts.lookUp(url, matched: &matched, candidates: &candidates)
        domains.lookUp(url, matched: &matched)
        if !index.isEmpty {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: url.count) { lowered in
                for (offset, byte) in url.enumerated() { lowered[offset] = RequiredLiteral.lowercase(byte) }
                index.scan(UnsafeBufferPointer(lowered)) { id in candidates.append(contentsOf: filtersOfLiteral[id]) }
            }
        }
        if !candidates.isEmpty {
            candidates.sort()
            var previous: Int32 = -1
            for candidate in candidates where candidate != previous {
                previous = candidate
                if unique[Int(candidate)]?.matches(url) ?? false { matched.append(candidate) }
            }
        }
        if matched.count > 1 {
            matched.sort()
            // A name found at two places of one URL reports its filter twice.
            var write = 1
            for read in 1..<matched.count where matched[read] != matched[write - 1] {
                matched[write] = matched[read]
                write += 1
            }
            matched.removeSubrange(write...)
        }
    }
}
