/// Byte tests a trace's reader runs on every byte of a block, eight bytes at a time: nearly
/// every byte of a trace is printable ASCII, and one test of a 64-bit word says so for eight of
/// them, and says which is the first that is not.
package enum PrintableASCII {
    /// The first position from `start` whose byte is not printable ASCII (0x20–0x7F), or `end`.
    @inlinable @inline(__always)
    package static func firstOther(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        firstFlagged(
            in: bytes, from: start, to: end,
            // A byte's low seven bits plus 0x60 reach 0x80 exactly when they are at least 0x20
            // (no sum carries into the next byte): the high bit of each byte below 0x20 or at
            // or above 0x80, and of no other.
            word: { word in ~((word & EightBytes.lowBits) &+ 0x6060_6060_6060_6060) | word },
            byte: { byte in byte &- 0x20 >= 0x60 })
    }

    /// The first position from `start` whose byte ends a trace line's field (a space or a
    /// tab) or is beyond ASCII, or `end`.
    @inlinable @inline(__always)
    package static func firstFieldEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        firstFlagged(
            in: bytes, from: start, to: end,
            word: { word in word | EightBytes.bytes(equalTo: 0x20, in: word) | EightBytes.bytes(equalTo: 0x09, in: word) },
            byte: { byte in byte == 0x20 || byte == 0x09 || byte >= 0x80 })
    }

    /// The first position from `start` whose byte `byte` flags, or `end`: eight bytes at a time,
    /// `word` setting the high bit of exactly the flagged bytes of a word (the first of them is
    /// its lowest), then the last few bytes one at a time.
    @inlinable @inline(__always)
    static func firstFlagged(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
        word flags: (UInt64) -> UInt64, byte flagged: (UInt8) -> Bool
    ) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            while index + 8 <= end {
                let flagged = flags(EightBytes.load(base, index)) & EightBytes.highBits
                if flagged != 0 { return index + EightBytes.firstFlagged(flagged) }
                index += 8
            }
        }
        while index < end, !flagged(bytes[index]) { index += 1 }
        return index
    }

    /// Whether every byte is ASCII and none is NUL.
    @inlinable
    package static func isASCIIWithoutNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let end = bytes.count
        if let base = bytes.baseAddress {
            var flags: UInt64 = 0
            while index + 8 <= end {
                flags |= EightBytes.nulOrNonASCII(EightBytes.load(base, index))
                index += 8
            }
            if flags != 0 { return false }
        }
        while index < end {
            if bytes[index] >= 0x80 || bytes[index] == 0 { return false }
            index += 1
        }
        return true
    }
}
