/// The filters blocklists are made of — `^[^:]+://+([^/]+\.)?ads\.example\.com[/:]`, Adblock
/// Plus's `||ads.example.com^` as converters write it for WebKit — looked up by host name
/// instead of scanned for: a URL can only match one where the host name follows `//` or a dot
/// in the part of the URL before its first path slash, and ends where a character that no host
/// name holds follows. The few places that fit are hashed and looked up, a handful per URL
/// whatever the number of filters, as ad-blocking engines index `||host^` filters by host.
///
/// Exact for every URL, not only canonical ones, because it follows the regex, not URL syntax:
/// - `^[^:]+` is everything before the URL's first `:`, and `://+` needs `//` right after it,
///   then takes every further `/` (neither `[^/]` nor a host name can start with one);
/// - `([^/]+\.)?` ends at a dot before the first `/` after that, or is absent — so the host
///   name starts at `start` or just after a dot of that segment (a dot that has something
///   before it);
/// - the name is letters, digits, `-`, `_` and `.` only, so it lies inside the segment, and
///   the tail's first term admits none of those characters, so the name ends just before a
///   character (or the sentinel) that no name can hold.
/// A filter whose tail is that one term matches exactly when the character after the name is
/// in the term's set; any other tail is confirmed by running the filter.
///
/// The same without `([^/]+\.)?` — `^[^:]+://+ads\.example\.com[:/]`, the exact host a
/// policy's `hosts:` lowers to — holds a name that starts at the segment's start only: it is
/// kept with `exact` set and looked up there alone.
struct HostAnchoredIndex: Sendable {
    /// The name and what follows it, for a filter of this shape.
    struct Split: Sendable {
        var name: [UInt8]
        /// The tail's first term; `isWholeTail` when nothing follows it.
        var next: ASCIISet
        var isWholeTail: Bool
        /// The name starts right after the `//` (no subdomain part in the filter).
        var exact: Bool = false
        /// What follows the name, first term included: run from the byte after the name, it
        /// decides the filter (the index has placed the name exactly), so only the tail is
        /// compiled — a handful of states instead of the whole URL's scaffolding.
        var tail: [Term]

        /// The tail as a filter anchored where the name ends.
        var tailFilter: ParsedURLFilter { ParsedURLFilter(terms: tail, hasBeginningOfLineAssertion: true, isCaseSensitive: false) }
    }

    /// `^[^:]+://+([^/]+\.)?`, as the parser builds it (parsed from text, so it is WebKit's own
    /// term structure, case flags and all).
    private static let prefix: [Term] = {
        guard case .filter(let parsed) = URLFilterParser.parse("^[^:]+://+([^/]+\\.)?x") else { return [] }
        return Array(parsed.terms.dropLast())
    }()

    /// `^[^:]+://+`, the exact host's prefix.
    private static let exactPrefix: [Term] = {
        guard case .filter(let parsed) = URLFilterParser.parse("^[^:]+://+x") else { return [] }
        return Array(parsed.terms.dropLast())
    }()

    /// Whether a byte can be part of the names this index holds.
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x2D, 0x5F, 0x2E: return true
        default: return false
        }
    }

    /// The name of a case-insensitive filter of the indexed shape (lowercase), or nil.
    static func split(_ filter: ParsedURLFilter) -> Split? {
        guard filter.hasBeginningOfLineAssertion, !filter.isCaseSensitive, !prefix.isEmpty, !exactPrefix.isEmpty else { return nil }
        let exact: Bool
        if filter.terms.count > prefix.count + 1, filter.terms.starts(with: prefix) {
            exact = false
        } else if filter.terms.count > exactPrefix.count + 1, filter.terms.starts(with: exactPrefix) {
            exact = true
        } else {
            return nil
        }
        var name: [UInt8] = []
        var index = exact ? exactPrefix.count : prefix.count
        while index < filter.terms.count, let byte = nameByte(filter.terms[index]) {
            name.append(byte)
            index += 1
        }
        guard !name.isEmpty, name.first != 0x2E, index < filter.terms.count,
              case .characterSet(let next) = filter.terms[index].atom, filter.terms[index].quantifier == .one,
              !next.admitsAny(of: nameBytes) else { return nil }
        return Split(name: name, next: next, isWholeTail: index == filter.terms.count - 1, exact: exact, tail: Array(filter.terms[index...]))
    }

    /// Every byte `isNameByte` admits, as a set: asking a filter's next set about each of the
    /// 128 bytes in turn, for a real list's 98,000 host-anchored filters, was 2.8 % of building
    /// its engine.
    static let nameBytes: ASCIISet = {
        var set = ASCIISet()
        for byte in UInt8(0)..<128 where isNameByte(byte) { set.insert(byte) }
        return set
    }()

    /// The lowercase name byte a term stands for: a digit, `-`, `_`, `.`, or a letter in both cases.
    static func nameByte(_ term: Term) -> UInt8? {
        guard term.quantifier == .one, case .characterSet(let set) = term.atom, !set.isInverted,
              let (lowest, highest) = set.lowestAndHighest else { return nil }
        let count = set.bitCount
        if count == 1, isNameByte(lowest), !(0x41...0x5A).contains(lowest), !(0x61...0x7A).contains(lowest) { return lowest }
        if count == 2, (0x41...0x5A).contains(lowest), highest == lowest | 0x20 { return highest }
        return nil
    }

    /// Per name: each filter's id, and the set the next byte must be in when the tail is that
    /// one term (`nextSets[set]`; -1: run the filter). A blocklist's hundred thousand filters
    /// share a handful of such sets (`[/:]` nearly always).
    struct Payload: BitwiseCopyable, Sendable {
        var id: Int32
        var set: Int32
        /// 1: the name must start right after the `//` (`Split.exact`); 0: there or after a dot.
        var exact: Int32
    }

    /// A set the byte after a name must be in (`ASCIISet`, inversion as a byte, not a `Bool`:
    /// an image's bytes may hold anything).
    struct NextSet: BitwiseCopyable, Sendable, Hashable {
        var low: UInt64
        var high: UInt64
        var inverted: UInt8
        /// Written as zeros: an image's bytes must not depend on what memory held before.
        var padding: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0)

        init(_ set: ASCIISet) {
            low = set.low
            high = set.high
            inverted = set.isInverted ? 1 : 0
        }

        /// `ASCIISet.admits` on the stored set.
        @inline(__always)
        func admits(_ byte: UInt8) -> Bool {
            guard byte < 128 else { return false }
            let member = byte < 64 ? low & (1 << UInt64(byte)) != 0 : high & (1 << UInt64(byte - 64)) != 0
            return inverted != 0 ? byte != 0 && !member : member
        }

        static func == (left: NextSet, right: NextSet) -> Bool { left.low == right.low && left.high == right.high && left.inverted == right.inverted }
        func hash(into hasher: inout Hasher) { hasher.combine(low); hasher.combine(high); hasher.combine(inverted) }
    }

    private let table: NameTable<Payload>
    private let nextSets: FlatTable<NextSet>

    var isEmpty: Bool { table.isEmpty }

    static func write(_ splits: [(id: Int32, split: Split)], into writer: inout ImageWriter) {
        var sets: [NextSet] = []
        var numbers: [NextSet: Int32] = [:]
        let items = splits.map { item -> ([UInt8], Payload) in
            let exact: Int32 = item.split.exact ? 1 : 0
            guard item.split.isWholeTail else { return (item.split.name, Payload(id: item.id, set: -1, exact: exact)) }
            let set = NextSet(item.split.next)
            if let known = numbers[set] { return (item.split.name, Payload(id: item.id, set: known, exact: exact)) }
            numbers[set] = Int32(sets.count)
            sets.append(set)
            return (item.split.name, Payload(id: item.id, set: Int32(sets.count - 1), exact: exact))
        }
        NameTable.write(items, into: &writer)
        writer.write(sets)
    }

    init(reading reader: inout ImageReader, filterCount: Int) throws(ImageError) {
        table = try NameTable(reading: &reader, "the host-name index")
        nextSets = try reader.table(NextSet.self, "the host-name index's next-byte sets")
        for payload in table.payloads.buffer where payload.id < 0 || Int(payload.id) >= filterCount || payload.set < -1 || Int(payload.set) >= nextSets.count
            || (payload.exact != 0 && payload.exact != 1) {
            throw ImageError("the host-name index names filter \(payload.id) of \(filterCount), set \(payload.set) of \(nextSets.count) or exactness \(payload.exact)")
        }
    }

    /// The filters whose name sits at one of the places `url` allows and whose tail matches
    /// there, into `matched`: decided by the byte after the name, or by `runTail(filter, end)`
    /// running the filter's tail from `end`, the position after the name. What the host part
    /// holds is taken from `cache` when a recent URL had the same host part (`useCache`).
    func lookUp(_ url: UnsafeBufferPointer<UInt8>, matched: inout [Int32], cache: inout HostSegmentCache, useCache: Bool,
                runTail: (Int32, Int) -> Bool) {
        guard !table.isEmpty, let colon = url.firstIndex(of: 0x3A), colon > 0,
              colon + 2 < url.count, url[colon + 1] == 0x2F, url[colon + 2] == 0x2F else { return }
        var start = colon + 3
        while start < url.count, url[start] == 0x2F { start += 1 }
        // A filter never steps over NUL or a byte beyond ASCII: a name after one cannot match.
        // (No name holds one: the segment is cut short at the first, below.)
        guard !url[..<start].contains(where: { $0 == 0 || $0 >= 0x80 }) else { return }
        var end = start
        while end < url.count, url[end] != 0x2F { end += 1 }
        // What is found depends on the segment's bytes and on whether a `/` or the URL's end
        // follows it (the byte after a name that ends the segment); only a tail's run reads
        // further, and runs for each URL.
        let segment = start..<end, endsURL = end == url.count
        var key: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        var tag: UInt64 = 0
        if useCache, segment.count <= HostSegmentCache.maximumSegment {
            tag = HostSegmentCache.key(url, segment, into: &key)
            if let line = cache.line(tag: tag, length: segment.count, key: key, endsURL: endsURL) {
                cache.finds(ofLine: line) { id, tailStart in
                    if tailStart < 0 || runTail(id, start + Int(tailStart)) { matched.append(id) }
                }
                return
            }
        }
        if !cache.found.isEmpty { cache.found.removeAll(keepingCapacity: true) }
        collect(url, segment, into: &cache.found)
        if tag != 0, cache.found.count <= HostSegmentCache.maximumFinds {
            cache.storeFound(tag: tag, length: segment.count, key: key, endsURL: endsURL)
        }
        for (id, tailStart) in cache.found where tailStart < 0 || runTail(id, start + Int(tailStart)) {
            matched.append(id)
        }
    }

    /// What the host segment `url[segment]` holds: each filter matched outright, with -1, or
    /// whose tail must run from a place in it, with that place relative to the segment's start.
    private func collect(_ url: UnsafeBufferPointer<UInt8>, _ segment: Range<Int>, into found: inout [(id: Int32, tailStart: Int32)]) {
        let start = segment.lowerBound
        // Where a name may start: the segment's start, or after a dot with something before it
        // in the segment. It ends at the first byte no name holds (at the latest the `/` that
        // ends the segment), or at the URL's end: the names are tails of the segment's runs of
        // name bytes, each run hashed once from its end back to its start.
        var run = start
        while run < segment.upperBound {
            var stop = run
            while stop < segment.upperBound, Self.isNameByte(url[stop]) { stop += 1 }
            guard stop > run else {
                if url[run] == 0 || url[run] >= 0x80 { return }
                run += 1
                continue
            }
            let next: UInt8 = stop < url.count ? url[stop] : 0
            var hash = NameTable<Payload>.hashSeed
            var position = stop
            while position > run {
                position -= 1
                hash = NameTable<Payload>.hashStep(hash, url[position])
                guard position == start || (position - 1 > start && url[position - 1] == 0x2E) else { continue }
                let atStart = position == start
                table.find(url, position..<stop, hash: hash) { filter in
                    // An exact host's name starts right after the `//`, never after a dot.
                    if filter.exact != 0 && !atStart { return }
                    if filter.set < 0 {
                        found.append((filter.id, Int32(stop - start)))
                    } else if nextSets[Int(filter.set)].admits(next) {
                        found.append((filter.id, -1))
                    }
                }
            }
            run = stop
        }
    }
}

extension ASCIISet {
    /// Whether a set term steps over `byte` (0: the end-of-string sentinel, which an inverted
    /// set never matches; bytes beyond ASCII match no set).
    func admits(_ byte: UInt8) -> Bool {
        guard byte < 128 else { return false }
        return isInverted ? byte != 0 && !contains(byte) : contains(byte)
    }

    /// Whether this set admits any byte of `other` (a plain set, not inverted), as `admits`
    /// would answer byte by byte: an inverted set admits what it does not hold, never NUL.
    func admitsAny(of other: ASCIISet) -> Bool {
        precondition(!other.isInverted)
        let low = isInverted ? ~self.low & ~1 : self.low, high = isInverted ? ~self.high : self.high
        return low & other.low != 0 || high & other.high != 0
    }
}
