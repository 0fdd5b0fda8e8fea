/// What `HostAnchoredIndex` found in the host part of recent URLs, kept per caller: a page
/// loads most of its resources from a few hosts, so most URLs of a trace repeat the host part
/// of one a few requests before (79 % of a million realistic requests, in 256 lines), and
/// looking it up again — a handful of names hashed, each tested against a filter of 128 KB and
/// the hits against tables of megabytes — was the host index's whole cost.
///
/// A line keeps the segment's bytes exactly (no hash stands in for them) and what the index
/// found there: filters matched outright, and filters whose tail must still run from a place
/// in the segment, which the rest of the URL decides. Segments longer than a line holds, and
/// those with more finds than it holds, are looked up afresh every time.
struct HostSegmentCache: Sendable {
    static let lineCount = 256
    /// Words a line spans: tag, length and count, the segment's bytes, then the finds.
    static let wordsPerLine = 16
    static let keyWords = 6
    static let maximumSegment = keyWords * 8
    static let maximumFinds = wordsPerLine - 2 - keyWords

    /// Per line: word 0 the tag (the hash with its low bit set; 0 for an empty line), word 1
    /// the segment's length, the count of finds and whether the URL ends with the segment,
    /// then its bytes zero-padded, then each find as `id` in the low half and, in the high
    /// half, the tail's start relative to the segment's, or -1 for a filter matched outright.
    private var words: [UInt64]
    /// Which matcher's index the lines were found by: a scratch moved to another matcher
    /// starts afresh. The bytes are kept so that their address cannot be reused meanwhile.
    private var owner: ImageBytes?
    private var ownerOffset = -1
    /// Whether lines are kept at all: a one-off match would pay for lines it never reads.
    let isEnabled: Bool
    /// What the segment being looked up holds, gathered before it is kept and replayed.
    var found: [(id: Int32, tailStart: Int32)] = []

    init(enabled: Bool) {
        words = []
        isEnabled = enabled
    }

    /// Readies the cache for the index living at `offset` of `bytes`; false when disabled.
    @inline(__always)
    mutating func prepare(for bytes: ImageBytes, at offset: Int) -> Bool {
        guard isEnabled else { return false }
        if owner !== bytes || ownerOffset != offset { reset(for: bytes, at: offset) }
        return true
    }

    private mutating func reset(for bytes: ImageBytes, at offset: Int) {
        owner = bytes
        ownerOffset = offset
        words = [UInt64](repeating: 0, count: Self.lineCount * Self.wordsPerLine)
    }

    /// The segment's bytes as little-endian words, zero-padded, and its tag (of the bytes
    /// alone: a line tells a segment that ends the URL from one a `/` follows by its shape).
    @inline(__always)
    static func key(_ url: UnsafeBufferPointer<UInt8>, _ segment: Range<Int>, into key: inout (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) -> UInt64 {
        key = (0, 0, 0, 0, 0, 0)
        var hash = Hashing.golden ^ UInt64(segment.count)
        withUnsafeMutableBytes(of: &key) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(url)[segment]))
            for index in 0..<((segment.count + 7) / 8) {
                let word = raw.load(fromByteOffset: index * 8, as: UInt64.self)
                hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
                hash ^= hash >> 29
            }
        }
        return hash | 1
    }

    /// The line that holds this segment, if one does.
    @inline(__always)
    func line(tag: UInt64, length: Int, key: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64), endsURL: Bool) -> Int? {
        let line = Self.lineIndex(tag)
        return words.withUnsafeBufferPointer { words -> Int? in
            let base = line * Self.wordsPerLine
            guard words[base] == tag, words[base + 1] & 0x1_00FF == Self.shape(length: length, endsURL: endsURL),
                  words[base + 2] == key.0, words[base + 3] == key.1, words[base + 4] == key.2,
                  words[base + 5] == key.3, words[base + 6] == key.4, words[base + 7] == key.5 else { return nil }
            return line
        }
    }

    /// The finds of a line that `line(tag:...)` returned, in the order they were found.
    @inline(__always)
    func finds(ofLine line: Int, _ body: (_ id: Int32, _ tailStart: Int32) -> Void) {
        words.withUnsafeBufferPointer { words in
            let base = line * Self.wordsPerLine
            let count = Int((words[base + 1] >> 8) & 0xFF)
            for index in 0..<count {
                let find = words[base + 2 + Self.keyWords + index]
                body(Int32(truncatingIfNeeded: find), Int32(truncatingIfNeeded: find >> 32))
            }
        }
    }

    /// Keeps what was found in a segment, `found` (at most `maximumFinds`, the caller checks).
    mutating func storeFound(tag: UInt64, length: Int, key: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64), endsURL: Bool) {
        let finds = found
        precondition(finds.count <= Self.maximumFinds && length <= Self.maximumSegment)
        let base = Self.lineIndex(tag) * Self.wordsPerLine
        words.withUnsafeMutableBufferPointer { words in
            words[base] = tag
            words[base + 1] = Self.shape(length: length, endsURL: endsURL) | UInt64(finds.count) << 8
            (words[base + 2], words[base + 3], words[base + 4], words[base + 5], words[base + 6], words[base + 7]) = key
            for (index, find) in finds.enumerated() {
                words[base + 2 + Self.keyWords + index] = UInt64(UInt32(bitPattern: find.id)) | UInt64(UInt32(bitPattern: find.tailStart)) << 32
            }
        }
    }

    @inline(__always)
    private static func shape(length: Int, endsURL: Bool) -> UInt64 { UInt64(length) | (endsURL ? 0x1_0000 : 0) }

    @inline(__always)
    private static func lineIndex(_ tag: UInt64) -> Int { Int(truncatingIfNeeded: tag >> 40) & (lineCount - 1) }
}
