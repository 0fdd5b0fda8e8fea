/// Byte tests a trace's reader runs on every byte of a block, eight bytes at a time: nearly
/// every byte of a trace is printable ASCII, and one test of a 64-bit word says so for eight of
/// them, and says which is the first that is not. (Bit Twiddling Hacks' exact form of the
/// "has a zero byte" test: no borrow crosses a byte, so a flag is never false.)
enum PrintableASCII {
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    private static let spaces: UInt64 = 0x2020_2020_2020_2020
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let tabs: UInt64 = 0x0909_0909_0909_0909

    /// The first position from `start` whose byte is not printable ASCII (0x20–0x7F), or `end`.
    @inline(__always)
    static func firstOther(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        firstFlagged(
            in: bytes, from: start, to: end,
            // A byte's low seven bits plus 0x60 reach 0x80 exactly when they are at least 0x20
            // (no sum carries into the next byte): the high bit of each byte below 0x20 or at
            // or above 0x80, and of no other.
            word: { word in ~((word & lowBits) &+ 0x6060_6060_6060_6060) | word },
            byte: { byte in byte &- 0x20 >= 0x60 })
    }

    /// The first position from `start` whose byte ends a trace line's field (a space or a
    /// tab) or is beyond ASCII, or `end`.
    @inline(__always)
    static func firstFieldEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        firstFlagged(
            in: bytes, from: start, to: end,
            // A byte equal to 0x20 or 0x09 is a zero byte of the word XORed with it.
            word: { word in word | zeroBytes(word ^ spaces) | zeroBytes(word ^ tabs) },
            byte: { byte in byte == 0x20 || byte == 0x09 || byte >= 0x80 })
    }

    /// The high bit of each zero byte of `word`, and of no other (low seven bits plus 0x7F
    /// reach 0x80 unless they are all zero, and no sum carries).
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & lowBits) &+ lowBits) | word)
    }

    /// The first position from `start` whose byte `byte` flags, or `end`: eight bytes at a time,
    /// `word` setting the high bit of exactly the flagged bytes of a word (the first of them is
    /// its lowest), then the last few bytes one at a time.
    @inline(__always)
    private static func firstFlagged(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
        word flags: (UInt64) -> UInt64, byte flagged: (UInt8) -> Bool
    ) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            while index + 8 <= end {
                let flagged = flags(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))) & highBits
                if flagged != 0 { return index + flagged.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index < end, !flagged(bytes[index]) { index += 1 }
        return index
    }

    /// Whether every byte is ASCII and none is NUL.
    static func isASCIIWithoutNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let end = bytes.count
        if let base = bytes.baseAddress {
            var flags: UInt64 = 0
            while index + 8 <= end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                flags |= word | ((word &- ones) & ~word)
                index += 8
            }
            if flags & highBits != 0 { return false }
        }
        while index < end {
            if bytes[index] >= 0x80 || bytes[index] == 0 { return false }
            index += 1
        }
        return true
    }
}
