/// Many url-filters run on one URL at once: which of them match it, in index order.
///
/// Each filter is indexed by the longest literal every match must contain; the URL's words
/// (`LiteralTokenIndex`) and one Aho–Corasick pass over the lowercased URL, for the literals
/// without a word of their own, find the literals present, and only those filters (plus the
/// few without a usable literal) run their automata. Filters that match everything (WebKit's
/// universal actions) match every URL. Time is linear in the URL for the scan, and linear per
/// candidate filter; no backtracking anywhere.
///
/// Filters anchored at a host name (`^[^:]+://+([^/]+\.)?ads\.example\.com[/:]`, nine in ten
/// of a real blocklist) are looked up by name instead (`HostAnchoredIndex`); most are decided
/// by the byte after the name and never need an automaton, the rest by an automaton of their
/// tail alone, run from where the name ends.
///
/// The regexes WebKit makes of `if-domain` entries are looked up by name too
/// (`DomainConditionIndex`).
///
/// Identical filters (a blocklist repeats many) are compiled and run once: each distinct
/// filter has an id, and `matchingFilters` answers in ids, so a caller that groups positions
/// its own way (by condition, say) need not walk every position of a filter that matched.
///
/// Its tables live in an engine image (`ImageBytes`) and are read in place: a matcher built in
/// this process writes them and reads them back, one an app loads reads them from a mapped
/// file (`init(reading:)`), and both match with the same code.
///
/// A class: immutable, it is shared as it is; a struct of its tables (over 600 bytes) was
/// copied onto the stack for each URL matched by its holder.
public final class URLFilterMatcher: Sendable {
    /// The bytes the tables live in, and which of them are this matcher's.
    private let storage: ImageBytes
    private let byteRange: Range<Int>
    /// Distinct filters' automata; none for the universal filter and for host-anchored
    /// filters that their name and next byte decide.
    private let automata: FilterAutomata
    private let positionsOfFilter: FlatLists<Int32>
    /// The id all filters that match everything share, the last id.
    public let universalID: Int32?
    private let unindexed: FlatTable<Int32>
    private let index: AhoCorasick
    /// The literals found through a word of theirs instead of the automaton.
    private let words: LiteralTokenIndex
    private let hosts: HostAnchoredIndex
    private let domains: DomainConditionIndex
    /// Distinct filters of each literal.
    private let filtersOfLiteral: FlatLists<Int32>
    /// Per position: its distinct filter's id, or -1 for a refused filter (which never matches).
    public let filterOfPosition: FlatTable<Int32>

    /// Literals shorter than this occur in too many URLs to be worth indexing.
    static let minimumLiteral = 3

    /// `filters[i]` is filter i: parsed, matching everything, or refused (never matches).
    /// `compile` turns the distinct filters into automata; a caller with many can spread that
    /// over its cores (this module stays free of any concurrency library).
    public convenience init(_ results: [URLFilterParseResult], compile: ([ParsedURLFilter]) -> [CompiledURLFilter] = { $0.map(CompiledURLFilter.init) }) {
        var builder = Builder()
        var uniqueIDs: [ParsedURLFilter: Int32] = [:]
        for (position, result) in results.enumerated() {
            if case .filter(let parsed) = result, let id = uniqueIDs[parsed] {
                builder.repeatFilter(id, at: position)
            } else if let id = builder.add(result, at: position) {
                if case .filter(let parsed) = result { uniqueIDs[parsed] = id }
            }
        }
        self.init(builder, compile: compile)
    }

    /// Filters given by number, for a caller that holds many as texts: `identities[i]` says
    /// which filters are the same (equal numbers for equal texts, numbered from 0 up, each
    /// below the count), and `parse` parses the filters at the positions asked, a batch at a
    /// time — the first of each identity only — so that only one batch's parsed terms are
    /// alive at once (a real list's parsed terms outweigh everything the matcher keeps) and no
    /// parsed filter is hashed.
    public convenience init(identities: [Int], batch: Int = 4_096, parse: ([Int]) -> [URLFilterParseResult],
                compile: ([ParsedURLFilter]) -> [CompiledURLFilter] = { $0.map(CompiledURLFilter.init) }) {
        precondition(identities.allSatisfy { $0 >= 0 && $0 < identities.count }, "identities number the filters from 0 up")
        var builder = Builder()
        /// What each identity turned out to be: a filter's id, or -1 refused, -2 universal;
        /// `unknown` until its first position is parsed. Arrays, not dictionaries: a real
        /// list has 100,000 identities.
        let unknown = Int32.min
        var kindOfIdentity = [Int32](repeating: unknown, count: identities.count)
        /// The batch an identity was last picked in, so that each batch parses it once.
        var pickedInBatch = [Int32](repeating: -1, count: identities.count)
        var start = 0
        var batchNumber: Int32 = 0
        while start < identities.count {
            let range = start..<min(start + batch, identities.count)
            start = range.upperBound
            var firsts: [Int] = []
            for position in range where kindOfIdentity[identities[position]] == unknown && pickedInBatch[identities[position]] != batchNumber {
                pickedInBatch[identities[position]] = batchNumber
                firsts.append(position)
            }
            batchNumber += 1
            var parsed = parse(firsts)
            var next = 0
            for position in range {
                let identity = identities[position]
                let known = kindOfIdentity[identity]
                if known != unknown {
                    switch known {
                    case -2: builder.add(.matchesEverything, at: position)
                    case -1: builder.add(.rejected(URLFilterProblem(status: .emptyPattern, span: URLFilterSpan(offset: 0, length: 0))), at: position)
                    default: builder.repeatFilter(known, at: position)
                    }
                    continue
                }
                let result = parsed[next]
                parsed[next] = .matchesEverything
                next += 1
                switch result {
                case .matchesEverything: kindOfIdentity[identity] = -2
                case .rejected: kindOfIdentity[identity] = -1
                case .filter: break
                }
                if let id = builder.add(result, at: position) { kindOfIdentity[identity] = id }
            }
        }
        self.init(builder, compile: compile)
    }

    /// Everything the matcher keeps, gathered filter by filter.
    private struct Builder {
        var toCompile: [ParsedURLFilter] = []
        var literalIDs: [[UInt8]: Int] = [:]
        var literals: [(literal: [UInt8], id: Int)] = []
        var universal: [Int32] = []
        var anchored: [(id: Int32, split: HostAnchoredIndex.Split)] = []
        var domainFilters: [(id: Int32, name: [UInt8], subdomains: Bool)] = []
        /// Per filter: what decides it once it is a candidate.
        var deciders: [FilterAutomata.Decider] = []
        var positionsOfFilter: [[Int32]] = []
        var filterOfPosition: [Int32] = []
        var unindexed: [Int32] = []
        var filtersOfLiteral: [[Int32]] = []

        /// Another position of a filter already added.
        mutating func repeatFilter(_ id: Int32, at position: Int) {
            positionsOfFilter[Int(id)].append(Int32(position))
            filterOfPosition.append(id)
        }

        /// A new filter (its id), or a universal or refused one (nil). Positions come in order.
        @discardableResult
        mutating func add(_ result: URLFilterParseResult, at position: Int) -> Int32? {
            guard case .filter(let parsed) = result else {
                if case .matchesEverything = result { universal.append(Int32(position)) }
                filterOfPosition.append(result.status == .matchesEverything ? -2 : -1)
                return nil
            }
            let id = Int32(positionsOfFilter.count)
            positionsOfFilter.append([Int32(position)])
            filterOfPosition.append(id)
            // Only filters that must run keep their terms, to be compiled.
            if let split = HostAnchoredIndex.split(parsed) {
                anchored.append((id, split))
                deciders.append(split.isWholeTail ? .none : .automaton)
                if !split.isWholeTail { toCompile.append(split.tailFilter) }
                return id
            }
            if let domain = DomainConditionIndex.split(parsed) {
                domainFilters.append((id, domain.name, domain.subdomains))
                deciders.append(.none)
                return id
            }
            let literal: [UInt8]
            if let whole = RequiredLiteral.whole(in: parsed) {
                // Found is matched: no automaton to compile, store or run.
                deciders.append(.literal)
                literal = whole
            } else {
                deciders.append(.automaton)
                toCompile.append(parsed)
                literal = RequiredLiteral.best(in: parsed)
            }
            guard literal.count >= URLFilterMatcher.minimumLiteral else {
                unindexed.append(id)
                return id
            }
            if let literalID = literalIDs[literal] {
                filtersOfLiteral[literalID].append(id)
            } else {
                literalIDs[literal] = filtersOfLiteral.count
                literals.append((literal, filtersOfLiteral.count))
                filtersOfLiteral.append([id])
            }
            return id
        }
    }

    /// Writes the builder's tables into an image of their own and reads them back.
    private convenience init(_ builder: consuming Builder, compile: ([ParsedURLFilter]) -> [CompiledURLFilter]) {
        var writer = ImageWriter()
        Self.write(builder, compile: compile, into: &writer)
        let bytes = ImageBytes(copying: writer.bytes)
        var reader = ImageReader(bytes)
        do {
            try self.init(reading: &reader)
        } catch {
            preconditionFailure("a matcher cannot read what it wrote: \(error)")
        }
    }

    private static func write(_ builder: consuming Builder, compile: ([ParsedURLFilter]) -> [CompiledURLFilter], into writer: inout ImageWriter) {
        var positionsOfFilter = builder.positionsOfFilter
        var filterOfPosition = builder.filterOfPosition
        var universalID: Int32 = -1
        if !builder.universal.isEmpty {
            universalID = Int32(positionsOfFilter.count)
            positionsOfFilter.append(builder.universal)
            for position in builder.universal { filterOfPosition[Int(position)] = universalID }
        }
        let compiled = compile(builder.toCompile)
        builder.toCompile = []
        var next = compiled.makeIterator()
        var automata: [FilterAutomata.Entry] = builder.deciders.map { decider in
            switch decider {
            case .none: return .none
            case .literal: return .literal
            case .automaton: return .compiled(next.next()!)
            }
        }
        if universalID >= 0 { automata.append(.none) }
        writer.write(scalars: [Int64(positionsOfFilter.count), Int64(universalID), Int64(filterOfPosition.count)])
        writer.write(lists: positionsOfFilter)
        writer.write(filterOfPosition)
        writer.write(builder.unindexed)
        writer.write(lists: builder.filtersOfLiteral)
        let unworded = LiteralTokenIndex.write(builder.literals, idCount: builder.filtersOfLiteral.count, into: &writer)
        AhoCorasick.write(unworded, into: &writer)
        HostAnchoredIndex.write(builder.anchored, into: &writer)
        DomainConditionIndex.write(builder.domainFilters, into: &writer)
        FilterAutomata.write(automata, into: &writer)
    }

    /// A matcher from tables a matcher wrote (`write(into:)`), checked before they are used:
    /// every id, position and range inside its table (`ImageError` says which is not).
    public init(reading reader: inout ImageReader) throws(ImageError) {
        storage = reader.bytes
        let start = reader.offset
        let scalars = try reader.scalars(3, "the matcher's counts")
        guard scalars[0] >= 0, scalars[0] < Int64(Int32.max), scalars[2] >= 0, scalars[2] < Int64(Int32.max) else {
            throw ImageError("the matcher's counts are out of range")
        }
        let filterCount = Int32(scalars[0]), positionCount = Int32(scalars[2])
        guard scalars[1] >= -1, scalars[1] < Int64(filterCount) else { throw ImageError("the matcher's universal filter is \(scalars[1]) of \(filterCount)") }
        universalID = scalars[1] >= 0 ? Int32(scalars[1]) : nil
        positionsOfFilter = try reader.lists(Int32.self, "the positions of each filter")
        guard positionsOfFilter.count == Int(filterCount) else { throw ImageError("positions for \(positionsOfFilter.count) filters of \(filterCount)") }
        try positionsOfFilter.check(0..<positionCount, "the positions of each filter")
        filterOfPosition = try reader.table(Int32.self, "the filter of each position")
        guard filterOfPosition.count == Int(positionCount) else { throw ImageError("filters for \(filterOfPosition.count) positions of \(positionCount)") }
        try filterOfPosition.check(-1..<filterCount, "the filter of each position")
        unindexed = try reader.table(Int32.self, "the filters without a literal")
        try unindexed.check(0..<filterCount, "the filters without a literal")
        filtersOfLiteral = try reader.lists(Int32.self, "the filters of each literal")
        try filtersOfLiteral.check(0..<filterCount, "the filters of each literal")
        words = try LiteralTokenIndex(reading: &reader, idCount: filtersOfLiteral.count)
        index = try AhoCorasick(reading: &reader, idCount: filtersOfLiteral.count)
        hosts = try HostAnchoredIndex(reading: &reader, filterCount: Int(filterCount))
        domains = try DomainConditionIndex(reading: &reader, filterCount: Int(filterCount))
        automata = try FilterAutomata(reading: &reader, filterCount: Int(filterCount))
        byteRange = start..<reader.offset
    }

    /// Writes this matcher's tables into a larger image (their bytes, as they are: tables
    /// hold counts and positions, never addresses).
    public func write(into writer: inout ImageWriter) {
        writer.append(bytes: UnsafeRawBufferPointer(rebasing: storage.buffer[byteRange]))
    }

    public var count: Int { filterOfPosition.count }

    /// How many distinct filters there are; ids run from 0 to this.
    public var filterCount: Int { positionsOfFilter.count }

    /// The positions that hold a distinct filter, ascending (valid while the matcher is).
    package func positions(ofFilter id: Int32) -> UnsafeBufferPointer<Int32> { positionsOfFilter[Int(id)] }

    /// The indices of the filters that match `url`, ascending.
    public func matches(_ url: String) -> [Int] {
        var url = url
        return url.withUTF8 { matches($0) }
    }

    package func matches(_ url: UnsafeBufferPointer<UInt8>) -> [Int] {
        var matched: [Int] = []
        for id in matchingFilters(url) { matched.append(contentsOf: positionsOfFilter[Int(id)].lazy.map(Int.init)) }
        matched.sort()
        return matched
    }

    /// The ids of the distinct filters that match `url`, ascending; the universal filter's
    /// last, unless a caller that handles it on its own leaves it out.
    package func matchingFilters(_ url: UnsafeBufferPointer<UInt8>, includingUniversal: Bool = true) -> [Int32] {
        var matched: [Int32] = []
        var scratch = Scratch(keepingHosts: false)
        matchingFilters(url, into: &matched, scratch: &scratch)
        if includingUniversal, let universalID { matched.append(universalID) }
        return matched
    }

    /// Working space for `matchingFilters(_:into:scratch:)`, kept by a caller from URL to URL:
    /// arrays that keep their capacity, and what the host parts of recent URLs held.
    public struct Scratch: Sendable {
        var candidates: [Int32] = []
        var hosts: HostSegmentCache

        /// `keepingHosts`: remember what recent URLs' host parts held (a few tens of
        /// kilobytes, made on first use), for a caller that matches many URLs.
        public init(keepingHosts: Bool = true) {
            hosts = HostSegmentCache(enabled: keepingHosts)
        }
    }

    /// The ids of the distinct filters other than the universal one that match `url`,
    /// ascending, into `matched`; `scratch` is working space. Both keep their capacity from
    /// call to call, so a caller that reuses them matches without allocating.
    package func matchingFilters(_ url: UnsafeBufferPointer<UInt8>, into matched: inout [Int32], scratch: inout Scratch) {
        // Guarded: `removeAll(keepingCapacity:)` is a generic range replacement even on an
        // empty array (two calls a request, 1 % of a real list's instructions), and most
        // requests leave both empty.
        if !matched.isEmpty { matched.removeAll(keepingCapacity: true) }
        var candidates = scratch.candidates
        scratch.candidates = []
        defer { scratch.candidates = candidates }
        if !candidates.isEmpty { candidates.removeAll(keepingCapacity: true) }
        // Guarded: appending nothing to an array that never had room still takes Array's
        // slow path (a new buffer), on every request of a list without such filters.
        if !unindexed.isEmpty { candidates += unindexed }
        // The closures below read these tables, not `self`: a closure that captured `self`
        // copied the whole matcher (and retained its bytes) on every request.
        let automata = automata, words = words, index = index, filtersOfLiteral = filtersOfLiteral
        let keepsHosts = scratch.hosts.prepare(for: storage, at: byteRange.lowerBound)
        hosts.lookUp(url, matched: &matched, cache: &scratch.hosts, useCache: keepsHosts) { filter, end in
            automata.matches(Int(filter), UnsafeBufferPointer(rebasing: url[end...]))
        }
        domains.lookUp(url, matched: &matched)
        if !index.isEmpty || !words.isEmpty {
            // No filter steps over NUL (WebKit's end-of-URL sentinel) or a byte beyond ASCII
            // (`FilterAutomata`), so no literal a match needs lies past the first of them: the
            // scan stops there, which also makes a literal found the match of a literal-only
            // filter. (FuzzURLFilter: `\ZZZZZ` on a URL with a NUL before `ZZZZZ`.)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: url.count + LiteralTokenIndex.padding) { lowered in
                let limit = RequiredLiteral.lowercasedPrefix(of: url, into: lowered)
                UnsafeMutableBufferPointer(rebasing: lowered[limit..<(limit + LiteralTokenIndex.padding)]).initialize(repeating: 0)
                let text = UnsafeBufferPointer(start: lowered.baseAddress, count: limit)
                words.scan(padded: text) { id in candidates.append(contentsOf: filtersOfLiteral[id]) }
                index.scan(text) { id in candidates.append(contentsOf: filtersOfLiteral[id]) }
            }
        }
        if !candidates.isEmpty {
            candidates.sort()
            var previous: Int32 = -1
            for candidate in candidates where candidate != previous {
                previous = candidate
                if automata.matches(Int(candidate), url) { matched.append(candidate) }
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
