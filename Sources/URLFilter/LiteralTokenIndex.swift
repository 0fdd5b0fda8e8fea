/// Finds which literals occur in a URL through the words they hold, instead of a pass of the
/// Aho–Corasick automaton: a blocklist's path filters (`-ad-manager/`, `/adserver/`,
/// `/api/direct/.*\?s1=`) carry their literal between separators, so a word of it — `manager`,
/// `adserver`, `direct` — stands whole in every URL that holds the literal. The URL is cut into
/// words once (runs of lowercase letters and digits), each word is looked up in a hash table,
/// and where one is found, each of its literals is compared at the one place it would start.
/// That is a lookup or two per word of the URL and a few comparisons, where the automaton takes
/// several steps for each of its bytes. (Brave's adblock engine indexes its filters by such
/// tokens, each by its least used one.)
///
/// A literal's key is one of:
/// - a **word** with a separator of the literal on each side (`manager` in `-ad-manager/`):
///   a URL word equal to it;
/// - the first three characters of a run that starts after a separator and runs to the end
///   of the literal (`/funcript`: a URL word that **begins** with `fun`), or the last three of a
///   run from the literal's start to a separator (`xhamster.` : a word that **ends** with `ter`).
///
/// Of its keys, a literal takes the one fewest literals share, a common word (`com`, `www`)
/// last. One with no key — a single run, `adserver`, which could sit inside `myadserver` —
/// stays with the automaton. A key found says only where its literals may start: each is
/// compared there before it counts as found, so what is found is exactly what the automaton
/// would find.
struct LiteralTokenIndex: Sendable {
    /// How a key is read from a URL word.
    enum Kind: UInt64, CaseIterable {
        case word = 0x9E37_79B9_7F4A_7C15
        case prefix = 0xC2B2_AE3D_27D4_EB4F
        case suffix = 0x1656_67B1_9E37_79F9
    }

    /// How many characters a prefix or suffix key holds.
    static let affixLength = 3

    /// The most literals one key leads to (the real lists' busiest key has 21).
    static let maximumSharing = 64

    /// One bucket of the open-addressing table: a key (0: empty) and where its literals are
    /// in `entries`.
    struct Slot: BitwiseCopyable, Sendable {
        var key: UInt64 = 0
        var start: Int32 = 0
        var end: Int32 = 0
    }

    /// A literal of a key, and how far before the key's anchor in the URL it starts (the
    /// word's start for a word or a prefix, its end for a suffix).
    struct Entry: BitwiseCopyable, Sendable {
        var id: Int32
        var offset: Int32
    }

    /// A power of two long, or empty.
    private let slots: FlatTable<Slot>
    private let entries: FlatTable<Entry>
    /// One bit per key's hash (a power of two of bits, as 64-bit words): most URL words are no
    /// key, and one bit in a table that stays in the first-level cache says so.
    private let filter: FlatTable<UInt64>
    /// Each literal's bytes, by id (empty for the literals the automaton finds).
    private let literals: FlatLists<UInt8>
    /// Per entry, its literal's first eight bytes (fewer for a shorter one), how many bytes it
    /// has and its offset: most literals a key brings up are not where the key says, and one
    /// load of the URL's bytes there tells, before the literal's own bytes are looked up. A
    /// literal of eight bytes or fewer is matched by it outright. Made when the image is read
    /// (no image format change).
    private let heads: [Head]

    struct Head: BitwiseCopyable {
        var bytes: UInt64
        var count: Int32
        var offset: Int32

        /// Which bytes of eight read from where the literal starts are its own.
        @inline(__always)
        var mask: UInt64 { UInt64.max &>> UInt64(64 &- 8 &* min(Int(count), 8)) }
    }
    /// Bit `kind` set: some key is of that kind (`Kind` by declaration order).
    private let kinds: UInt8
    /// When the index holds a few literals (a one-rule list, an app's own handful of path
    /// rules): their ids, each searched for directly. Cutting a URL into words and hashing
    /// each costs about what a direct search for eight literals does.
    private let few: [Int32]?

    /// Which prefix keys and which suffix keys there are, one bit of each key's own (the
    /// first `affixFilterWords` words for prefixes, the rest for suffixes): 8 KB each, which
    /// stay in the first-level cache, where the table-wide filter is tens of kilobytes. Two of
    /// a URL word's three look-ups are affixes, nearly all of them no key: a bit here says so.
    /// Made when the image is read, from the entries (no image format change).
    private let affixFilters: [UInt64]

    /// How many 64-bit words the filter of one affix kind holds.
    static let affixFilterWords = 1_024

    /// The bit of an affix filter a key sets: its bits 8 to 23, apart from those the table's
    /// filter (from bit 24) and slot (the top bits) are taken from.
    @inline(__always)
    static func affixFilterBit(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: key &>> 8) & (affixFilterWords * 64 - 1)
    }

    /// The affix filters of every prefix and suffix key: an entry whose three bytes from its
    /// offset (a prefix) or before it (a suffix) hash to its slot's key is under that key.
    private static func affixFilters(slots: FlatTable<Slot>, entries: FlatTable<Entry>, literals: FlatLists<UInt8>) -> [UInt64] {
        var filters = [UInt64](repeating: 0, count: 2 * affixFilterWords)
        func set(_ key: UInt64, suffix: Bool) {
            let bit = affixFilterBit(key)
            filters[(suffix ? affixFilterWords : 0) + bit >> 6] |= 1 << UInt64(bit & 63)
        }
        for slot in slots.buffer where slot.key != 0 {
            for position in Int(slot.start)..<Int(slot.end) {
                let entry = entries[position], literal = literals[Int(entry.id)], offset = Int(entry.offset)
                if offset + affixLength <= literal.count, literal[offset..<(offset + affixLength)].allSatisfy(isWordByte),
                   finish(hash(literal, from: offset, count: affixLength), .prefix) == slot.key {
                    set(slot.key, suffix: false)
                }
                if offset >= affixLength, offset <= literal.count, literal[(offset - affixLength)..<offset].allSatisfy(isWordByte),
                   finish(hash(literal, from: offset - affixLength, count: affixLength), .suffix) == slot.key {
                    set(slot.key, suffix: true)
                }
            }
        }
        return filters
    }

    /// The most literals searched for one by one instead of by their words.
    static let fewLiterals = 8

    /// Words nearly every URL holds: schemes, the commonest host labels, file extensions and
    /// asset folders.
    static let commonWords: Set<[UInt8]> = Set([
        "http", "https", "www", "com", "net", "org", "html", "htm", "php", "js", "css", "json",
        "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "woff", "woff2", "cdn", "static",
        "assets", "min", "api", "img", "image", "images", "index", "media", "content", "utm",
    ].map { Array($0.utf8) })

    /// The first and the last three characters of each common word: a prefix or suffix key
    /// that is one (`tps`, of `https`; `www`) is found in nearly every URL as surely as the
    /// word itself. Taken by the real lists' `https://a.pr-cy.ru` before its rarer words, the
    /// suffix `tps` had every URL compare it.
    static let commonAffixes: (prefixes: Set<[UInt8]>, suffixes: Set<[UInt8]>) = (
        Set(commonWords.filter { $0.count >= affixLength }.map { Array($0.prefix(affixLength)) }),
        Set(commonWords.filter { $0.count >= affixLength }.map { Array($0.suffix(affixLength)) })
    )

    @inline(__always)
    static func isWordByte(_ byte: UInt8) -> Bool {
        byte &- 0x61 < 26 || byte &- 0x30 < 10
    }

    // MARK: Keys

    /// A key of a literal: its kind, the bytes it hashes, and where the literal starts from
    /// the key's anchor.
    struct Key {
        var kind: Kind
        var bytes: [UInt8]
        var offset: Int
        var isCommon: Bool

        /// The table key (what a scan computes from the URL).
        var hashed: UInt64 { bytes.withUnsafeBufferPointer { LiteralTokenIndex.finish(LiteralTokenIndex.hash($0, from: 0, count: $0.count), kind) } }
    }

    /// Every key `literal` (lowercase) could be found by.
    static func keys(of literal: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var start = 0
        while start < literal.count {
            guard isWordByte(literal[start]) else { start += 1; continue }
            var end = start
            while end < literal.count, isWordByte(literal[end]) { end += 1 }
            let run = Array(literal[start..<end])
            switch (start > 0, end < literal.count) {
            case (true, true):
                keys.append(Key(kind: .word, bytes: run, offset: start, isCommon: commonWords.contains(run)))
            case (true, false) where run.count >= affixLength:
                let prefix = Array(run.prefix(affixLength))
                keys.append(Key(kind: .prefix, bytes: prefix, offset: start, isCommon: commonAffixes.prefixes.contains(prefix)))
            case (false, true) where run.count >= affixLength:
                let suffix = Array(run.suffix(affixLength))
                keys.append(Key(kind: .suffix, bytes: suffix, offset: end, isCommon: commonAffixes.suffixes.contains(suffix)))
            default:
                break
            }
            start = end
        }
        return keys
    }

    /// The hash of `count` bytes of `text` from `start`, eight bytes at a time (a word's bytes
    /// are never 0, so a masked last chunk still tells words of different lengths apart).
    /// FNV-1a, a byte at a time over every word of every URL, was a fifth of a real list's run.
    @inline(__always)
    static func hash(_ text: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> UInt64 {
        hash(from: start, count: count) { EightBytes.load(text, at: $0) }
    }

    /// `hash` with the eight bytes from a position read by `eight`: a scan of a padded text
    /// reads them without a check of how many are left, and hashes exactly as the index was
    /// written.
    @inline(__always)
    static func hash(from start: Int, count: Int, _ eight: (Int) -> UInt64) -> UInt64 {
        // No bytes at all (an empty word): no chunk's bytes are kept.
        guard count > 0 else { return Hashing.mix(Hashing.fnvOffsetBasis) }
        var hash = Hashing.fnvOffsetBasis
        var index = start, left = count
        while left > 8 {
            hash = Hashing.mix(hash ^ eight(index))
            index &+= 8
            left &-= 8
        }
        return Hashing.mix(hash ^ (eight(index) & (UInt64.max &>> UInt64(64 &- 8 &* left))))
    }

    /// The high bit of each byte of `chunk` that `isWordByte` admits (a lowercase letter or a
    /// digit), eight bytes at once: each byte's low seven bits plus a constant reaches 0x80
    /// exactly when they are at least the range's bound, and no sum carries into the next byte.
    @inline(__always)
    static func wordBytes(_ chunk: UInt64) -> UInt64 {
        let low = chunk & EightBytes.lowBits
        let atLeastZero = low &+ 0x5050_5050_5050_5050, pastNine = low &+ 0x4646_4646_4646_4646
        let atLeastA = low &+ 0x1F1F_1F1F_1F1F_1F1F, pastZ = low &+ 0x0505_0505_0505_0505
        return ((atLeastZero & ~pastNine) | (atLeastA & ~pastZ)) & ~chunk & EightBytes.highBits
    }

    /// A hash and its kind mixed into a table key (Fibonacci hashing: the product's high bits
    /// pick the slot, its middle bits the filter's bit); never 0, the empty slot's mark.
    @inline(__always)
    static func finish(_ hash: UInt64, _ kind: Kind) -> UInt64 {
        ((hash ^ kind.rawValue) &* Hashing.golden) | 1
    }

    /// The slot a key starts its probe at, in a table of `1 << bits` slots.
    @inline(__always)
    static func slot(_ key: UInt64, bits: Int) -> Int {
        Int(truncatingIfNeeded: key >> UInt64(64 - bits))
    }

    // MARK: Writing and reading

    /// The key each literal is found by: of its keys, the one that is not common and that the
    /// fewest literals share, the longer at a tie; nil for a literal without a key.
    static func chosenKeys(_ literals: [[UInt8]]) -> [Key?] {
        let keysOfLiteral = literals.map { keys(of: $0) }
        var sharing: [UInt64: Int] = [:]
        for keys in keysOfLiteral {
            for key in Set(keys.map(\.hashed)) { sharing[key, default: 0] += 1 }
        }
        func rank(_ key: Key) -> (Int, Int, Int) {
            (key.isCommon ? 1 : 0, sharing[key.hashed] ?? 0, -key.bytes.count)
        }
        return keysOfLiteral.map { keys in keys.min(by: { rank($0) < rank($1) }) }
    }

    /// Writes the index of the literals that have a key, and returns the others, for the
    /// automaton. `idCount`: how many literal ids there are.
    static func write(_ literals: [(literal: [UInt8], id: Int)], idCount: Int, into writer: inout ImageWriter) -> [(literal: [UInt8], id: Int)] {
        var rest: [(literal: [UInt8], id: Int)] = []
        let chosen = chosenKeys(literals.map(\.literal))
        // A key that many literals share would have every URL word that is it compare them all:
        // past `maximumSharing`, those literals are the automaton's, whose time does not grow
        // with them.
        var takers: [UInt64: Int] = [:]
        for key in chosen { if let key { takers[key.hashed, default: 0] += 1 } }
        var byKey: [UInt64: [Entry]] = [:]
        var bytes = [[UInt8]](repeating: [], count: idCount)
        var kinds: UInt8 = 0
        for ((literal, id), key) in zip(literals, chosen) {
            guard let key, takers[key.hashed]! <= maximumSharing else {
                rest.append((literal, id))
                continue
            }
            byKey[key.hashed, default: []].append(Entry(id: Int32(id), offset: Int32(key.offset)))
            bytes[id] = literal
            kinds |= 1 << UInt8(Kind.allCases.firstIndex(of: key.kind)!)
        }
        var slots: [Slot] = []
        var entries: [Entry] = []
        var filter: [UInt64] = []
        if !byKey.isEmpty {
            var size = 8
            while size < byKey.count * 2 { size *= 2 }
            slots = [Slot](repeating: Slot(), count: size)
            filter = [UInt64](repeating: 0, count: max(16, size / 8))
            let bits = size.trailingZeroBitCount
            // In key order, so that the image does not depend on the dictionary's order.
            for (key, list) in byKey.sorted(by: { $0.key < $1.key }) {
                var slot = Self.slot(key, bits: bits)
                while slots[slot].key != 0 { slot = (slot + 1) & (size - 1) }
                slots[slot] = Slot(key: key, start: Int32(entries.count), end: Int32(entries.count + list.count))
                entries += list.sorted { ($0.id, $0.offset) < ($1.id, $1.offset) }
                let bit = filterBit(key, count: filter.count)
                filter[bit >> 6] |= 1 << UInt64(bit & 63)
            }
        }
        writer.write(scalars: [Int64(kinds)])
        writer.write(slots)
        writer.write(entries)
        writer.write(filter)
        writer.write(lists: bytes)
        return rest
    }

    /// The bit of the filter a key sets: from the key's middle bits (its high ones pick its slot).
    @inline(__always)
    static func filterBit(_ key: UInt64, count: Int) -> Int {
        Int(truncatingIfNeeded: key >> 24) & (count * 64 - 1)
    }

    /// Reads the tables `write` wrote, checking every range and id.
    init(reading reader: inout ImageReader, idCount: Int) throws(ImageError) {
        let scalars = try reader.scalars(1, "the literal words' kinds")
        guard scalars[0] >= 0, scalars[0] < 1 << Kind.allCases.count else { throw ImageError("the literal words' kinds are \(scalars[0])") }
        kinds = UInt8(scalars[0])
        slots = try reader.table(Slot.self, "the literal words' table")
        entries = try reader.table(Entry.self, "the literals of each word")
        filter = try reader.table(UInt64.self, "the literal words' filter")
        literals = try reader.lists(UInt8.self, "the literals' bytes")
        guard slots.count == 0 || (slots.count >= 8 && slots.count & (slots.count - 1) == 0) else {
            throw ImageError("the literal words' table has \(slots.count) slots, not a power of two")
        }
        guard slots.count == 0 || (filter.count >= 16 && filter.count & (filter.count - 1) == 0) else {
            throw ImageError("the literal words' filter has \(filter.count) words, not a power of two")
        }
        guard literals.count == idCount else { throw ImageError("bytes for \(literals.count) literals of \(idCount)") }
        for entry in entries.buffer {
            guard entry.id >= 0, Int(entry.id) < idCount, entry.offset >= 0, Int(entry.offset) <= literals.listCount(Int(entry.id)),
                  literals.listCount(Int(entry.id)) > 0 else {
                throw ImageError("a literal word's entry names literal \(entry.id) at \(entry.offset): outside the literals, or an empty one")
            }
        }
        let entryCount = Int32(entries.count)
        var empty = slots.count == 0
        for slot in slots.buffer {
            if slot.key == 0 { empty = true; continue }
            guard slot.start >= 0, slot.start <= slot.end, slot.end <= entryCount else {
                throw ImageError("a literal word's list lies outside its table")
            }
        }
        // A scan probes until an empty slot: a full table would never stop.
        guard empty else { throw ImageError("the literal words' table has no empty slot") }
        // One entry per literal: each is under the one key it took.
        few = entries.count <= Self.fewLiterals ? entries.buffer.map(\.id).sorted() : nil
        affixFilters = few == nil ? Self.affixFilters(slots: slots, entries: entries, literals: literals) : []
        let allLiterals = literals
        heads = few == nil ? entries.buffer.map { entry in
            let literal = allLiterals[Int(entry.id)]
            var bytes: UInt64 = 0
            for (index, byte) in literal.prefix(8).enumerated() { bytes |= UInt64(byte) << UInt64(8 * index) }
            return Head(bytes: bytes, count: Int32(literal.count), offset: entry.offset)
        } : []
    }

    var isEmpty: Bool { slots.count == 0 }

    /// Whether a scan searches for each literal directly (`fewLiterals` or fewer).
    var searchesEachLiteral: Bool { few != nil }

    // MARK: Scanning

    /// How many zero bytes a padded text (`scan(padded:_:)`) holds past its end: enough that
    /// eight bytes read from any of its positions stay inside it.
    static let padding = 8

    /// Calls `found` with the id of every indexed literal that occurs in `text` (lowercased
    /// already) — once for each word of `text` whose key leads to it there.
    func scan(_ text: UnsafeBufferPointer<UInt8>, _ found: (Int) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count + Self.padding) { padded in
            _ = UnsafeMutableBufferPointer(rebasing: padded[..<text.count]).initialize(fromContentsOf: text)
            UnsafeMutableBufferPointer(rebasing: padded[text.count...]).initialize(repeating: 0)
            scan(padded: UnsafeBufferPointer(start: padded.baseAddress, count: text.count), found)
        }
    }

    /// `scan(_:_:)` of a text followed by `padding` zero bytes in memory, which a caller that
    /// lowercases the URL into a buffer of its own provides for nothing: every word's bytes
    /// are read eight at a time, the last word's too, with no check of how many are left.
    func scan(padded text: UnsafeBufferPointer<UInt8>, _ found: (Int) -> Void) {
        guard !isEmpty, let base = text.baseAddress else { return }
        if let few {
            for id in few where Self.occurs(literals[Int(id)], inPadded: text) { found(Int(id)) }
            return
        }
        let hasPrefixes = kinds & 2 != 0, hasSuffixes = kinds & 4 != 0
        affixFilters.withUnsafeBufferPointer { affixFilters in
            /// The keys of the word from `start` to `end`, each looked up where its filter
            /// holds it: the word itself, and its first and last three bytes.
            @inline(__always) func word(_ start: Int, _ end: Int) {
                let length = end &- start
                look(Self.finish(Self.hash(from: start, count: length) { EightBytes.load(base, $0) }, .word), anchor: start, text, found)
                guard length >= Self.affixLength else { return }
                @inline(__always) func affix(_ bytes: UInt64, _ kind: Kind) -> UInt64? {
                    let key = Self.finish(Self.hash(from: 0, count: Self.affixLength) { _ in bytes }, kind)
                    let bit = Self.affixFilterBit(key)
                    let word = affixFilters[(kind == .suffix ? Self.affixFilterWords : 0) &+ bit &>> 6]
                    return word & (1 &<< UInt64(bit & 63)) != 0 ? key : nil
                }
                if hasPrefixes, let key = affix(EightBytes.load(base, start), .prefix) {
                    look(key, anchor: start, text, found)
                }
                if hasSuffixes, let key = affix(EightBytes.load(base, end &- Self.affixLength), .suffix) {
                    look(key, anchor: end, text, found)
                }
            }
            // Words found eight bytes at a time: an edge is a byte whose word-ness differs from
            // the byte's before it, and edges alternate, a word's start then its end. The
            // padding's zeros end a word that runs into the last chunk.
            let count = text.count
            var start = -1
            var previousWasWord: UInt64 = 0
            var chunkStart = 0
            while chunkStart < count {
                let words = Self.wordBytes(EightBytes.load(base, chunkStart))
                var edges = words ^ ((words &<< 8) | previousWasWord)
                previousWasWord = words &>> 56
                while edges != 0 {
                    let position = chunkStart &+ EightBytes.firstFlagged(edges)
                    if start < 0 {
                        start = position
                    } else {
                        word(start, position)
                        start = -1
                    }
                    edges &= edges &- 1
                }
                chunkStart &+= 8
            }
            if start >= 0 { word(start, count) }
        }
    }

    /// The literals of `key`, each compared where it would start (`anchor` minus its
    /// offset), if the filter holds the key: most words are no key, and say so here, inline.
    @inline(__always)
    private func look(_ key: UInt64, anchor: Int, _ text: UnsafeBufferPointer<UInt8>, _ found: (Int) -> Void) {
        let bit = Self.filterBit(key, count: filter.count)
        guard filter[bit &>> 6] & (1 &<< UInt64(bit & 63)) != 0 else { return }
        probe(key, anchor: anchor, text, found)
    }

    @inline(never)
    private func probe(_ key: UInt64, anchor: Int, _ text: UnsafeBufferPointer<UInt8>, _ found: (Int) -> Void) {
        let slots = slots.buffer, mask = slots.count - 1
        var slot = Self.slot(key, bits: slots.count.trailingZeroBitCount)
        while slots[slot].key != 0 {
            if slots[slot].key == key {
                heads.withUnsafeBufferPointer { heads in
                    for position in Int(slots[slot].start)..<Int(slots[slot].end) {
                        let head = heads[position], start = anchor &- Int(head.offset)
                        guard start >= 0, start &+ Int(head.count) <= text.count,
                              EightBytes.load(text.baseAddress.unsafelyUnwrapped, start) & head.mask == head.bytes else { continue }
                        let id = Int(entries[position].id)
                        if head.count <= 8 || Self.matches(text, literals[id], at: start) { found(id) }
                    }
                }
                return
            }
            slot = (slot + 1) & mask
        }
    }

    /// Whether `literal` lies anywhere in a padded text: its first byte searched for eight
    /// bytes at a time (a byte equal to it is a zero byte of the word XORed with it), the rest
    /// compared where it is. A URL's bytes one at a time cost about four instructions each.
    static func occurs(_ literal: UnsafeBufferPointer<UInt8>, inPadded text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = literal.first else { return true }
        guard literal.count <= text.count, let base = text.baseAddress else { return false }
        let last = text.count - literal.count
        let pattern = EightBytes.repeated(first)
        var chunkStart = 0
        while chunkStart <= last {
            let word = EightBytes.load(base, chunkStart) ^ pattern
            // The high bit of each zero byte, and perhaps of bytes above one (a borrow): each
            // is compared, so a false one costs a comparison only.
            var zeros = EightBytes.zeroBytesOrAfter(word)
            while zeros != 0 {
                let start = chunkStart &+ EightBytes.firstFlagged(zeros)
                if start > last { return false }
                if matches(text, literal, at: start) { return true }
                zeros &= zeros &- 1
            }
            chunkStart &+= 8
        }
        return false
    }

    /// Whether `literal` lies in `text` at `offset`.
    @inline(__always)
    static func matches(_ text: UnsafeBufferPointer<UInt8>, _ literal: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard offset >= 0, offset + literal.count <= text.count else { return false }
        // The key the literal was found by lies inside it, so a literal that does not match
        // nearly always differs at an edge: both ends first, then the rest.
        let last = literal.count - 1
        guard last >= 0 else { return true }
        guard text[offset] == literal[0], text[offset + last] == literal[last] else { return false }
        for index in 1..<max(last, 1) where text[offset + index] != literal[index] { return false }
        return true
    }
}
