/// The longest run of characters every URL a filter matches must contain, lowercased — the
/// key a matcher indexes the filter by, so that only filters whose literal occurs in a URL are
/// run on it. Groups repeated once or more still contribute their inner runs; optional terms
/// (`?`, `*`) and character classes end a run.
enum RequiredLiteral {
    /// The longest required run that is not part of every URL's scaffolding: `^https?://`
    /// requires `http` and `://`, which every web URL has, so a filter like
    /// `^https?://[^/]+/ads` is better indexed by `/ads`. Empty when no run is worth indexing.
    static func best(in filter: ParsedURLFilter) -> [UInt8] {
        var runs: [[UInt8]] = []
        var current: [UInt8] = []
        collect(filter.terms, into: &runs, current: &current)
        runs.append(current)
        return runs.filter { !isScaffolding($0) }.max { $0.count < $1.count } ?? []
    }

    /// The literal of a filter that is nothing else — `.*` then characters, unanchored, the
    /// shape of most path filters of a blocklist (`/adsrv\\.`) — when every URL that contains
    /// it (lowercased) is matched: then finding it is the match, and no automaton is needed.
    /// nil for other filters, for a case-sensitive filter with letters (the search is
    /// case-insensitive), and for a literal the index would not take.
    static func whole(in filter: ParsedURLFilter) -> [UInt8]? {
        guard !filter.hasBeginningOfLineAssertion, filter.terms.count > 1, filter.terms[0].isKnownToMatchAnyString else { return nil }
        var bytes: [UInt8] = []
        for term in filter.terms.dropFirst() {
            guard case .characterSet(let set) = term.atom, term.quantifier == .one, let character = literal(set) else { return nil }
            if filter.isCaseSensitive, character >= 0x61, character <= 0x7A { return nil }
            bytes.append(character)
        }
        return bytes.count >= URLFilterMatcher.minimumLiteral && best(in: filter) == bytes ? bytes : nil
    }

    /// What nearly every URL contains: a run inside one of these indexes nothing.
    private static let scaffolding: [[UInt8]] = ["https://www.", "wss://"].map { Array($0.utf8) }

    static func isScaffolding(_ run: [UInt8]) -> Bool {
        scaffolding.contains { text in
            run.count <= text.count && (0...(text.count - run.count)).contains { text[$0..<($0 + run.count)].elementsEqual(run) }
        }
    }

    private static func collect(_ terms: [Term], into runs: inout [[UInt8]], current: inout [UInt8]) {
        for term in terms {
            switch (term.atom, term.quantifier) {
            case (.characterSet(let set), .one):
                if let character = literal(set) { current.append(character) } else { end(&current, into: &runs) }
            case (.characterSet(let set), .oneOrMore):
                // `x+`: the first x follows the run; what comes after may be more x.
                if let character = literal(set) { current.append(character) }
                end(&current, into: &runs)
            case (.group(let inner), .one):
                collect(inner, into: &runs, current: &current)
            case (.group(let inner), .oneOrMore):
                end(&current, into: &runs)
                collect(inner, into: &runs, current: &current)
                end(&current, into: &runs)
            case (_, .zeroOrOne), (_, .zeroOrMore):
                end(&current, into: &runs)
            }
        }
    }

    private static func end(_ current: inout [UInt8], into runs: inout [[UInt8]]) {
        if !current.isEmpty { runs.append(current) }
        current = []
    }

    /// The lowercase character a set stands for: one character, or a letter in both cases.
    private static func literal(_ set: ASCIISet) -> UInt8? {
        guard !set.isInverted, let (lowest, highest) = set.lowestAndHighest else { return nil }
        switch set.bitCount {
        case 1: return lowest != 0 ? lowercase(lowest) : nil
        case 2: return lowercase(lowest) == lowercase(highest) ? lowercase(lowest) : nil
        default: return nil
        }
    }

    static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Writes `url` lowercased into `lowered` up to its first NUL or byte beyond ASCII, which
    /// no filter steps over, and returns how many bytes that is. Eight bytes at a time: a
    /// chunk with such a byte is the one place a byte at a time is needed.
    static func lowercasedPrefix(of url: UnsafeBufferPointer<UInt8>, into lowered: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(lowered.count >= url.count)
        var index = 0
        if let source = url.baseAddress, let target = lowered.baseAddress {
            /// Lowercases the eight bytes from `offset`; false (writing nothing) when one is
            /// NUL or at or above 0x80.
            @inline(__always) func lowercaseEight(at offset: Int) -> Bool {
                let chunk = EightBytes.load(source, offset)
                guard EightBytes.nulOrNonASCII(chunk) == 0 else { return false }
                EightBytes.store(EightBytes.lowercasedASCII(chunk), at: UnsafeMutableRawPointer(target + offset))
                return true
            }
            while index + 8 <= url.count, lowercaseEight(at: index) { index += 8 }
            // The last few bytes as the URL's last eight, which overlap bytes already written
            // (lowercasing them again changes nothing): a URL rarely ends on a chunk's edge.
            if index < url.count, url.count - index < 8, url.count >= 8, lowercaseEight(at: url.count - 8) { return url.count }
        }
        while index < url.count, url[index] != 0, url[index] < 0x80 {
            lowered[index] = lowercase(url[index])
            index += 1
        }
        return index
    }
}
