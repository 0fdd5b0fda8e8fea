/// Eight bytes at a time in one 64-bit word ("SWAR"): the tests every byte-level scan in the
/// package runs — the trace reader, a URL's lowercased copy and its word index, a source file's
/// line breaks and scalar count. Each test sets the high bit of the bytes it flags, so the first
/// flagged byte of a word is `firstFlagged` of the result (words are read little-endian: the
/// first byte in the low bits). The forms are Bit Twiddling Hacks' ("Determine if a word has a
/// zero byte", "has a byte less than n"), each saying whether it is exact.
///
/// This folder is where the package's unsafe byte access lives (docs/decisions.md, "Where
/// unsafe code lives"); the rest reads bytes through these helpers.
package enum EightBytes {
    /// 0x01 in every byte.
    @inlinable package static var ones: UInt64 { 0x0101_0101_0101_0101 }
    /// Each byte's high bit.
    @inlinable package static var highBits: UInt64 { 0x8080_8080_8080_8080 }
    /// Each byte's low seven bits.
    @inlinable package static var lowBits: UInt64 { 0x7F7F_7F7F_7F7F_7F7F }

    /// `byte` in each of the eight bytes.
    @inlinable @inline(__always)
    package static func repeated(_ byte: UInt8) -> UInt64 { UInt64(byte) &* ones }

    /// The eight bytes at `pointer` (any alignment), the first in the low bits.
    @inlinable @inline(__always)
    package static func load(_ pointer: UnsafeRawPointer) -> UInt64 {
        UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self))
    }

    /// The eight bytes of `base` from `index`.
    @inlinable @inline(__always)
    package static func load(_ base: UnsafePointer<UInt8>, _ index: Int) -> UInt64 {
        load(UnsafeRawPointer(base + index))
    }

    /// Writes `word` at `pointer` (any alignment), its low bits first.
    @inlinable @inline(__always)
    package static func store(_ word: UInt64, at pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: word.littleEndian, as: UInt64.self)
    }

    /// Up to eight bytes of `bytes` from `index`, zeros past its end.
    @inlinable @inline(__always)
    package static func load(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        if index &+ 8 <= bytes.count, let base = bytes.baseAddress { return load(base, index) }
        var value: UInt64 = 0, shift: UInt64 = 0
        for position in index..<min(index &+ 8, bytes.count) {
            value |= UInt64(bytes[position]) &<< shift
            shift &+= 8
        }
        return value
    }

    /// The position, within its word, of the first byte whose high bit `flags` sets.
    @inlinable @inline(__always)
    package static func firstFlagged(_ flags: UInt64) -> Int { flags.trailingZeroBitCount &>> 3 }

    /// The high bit of each zero byte of `word`, and of no other: a byte's low seven bits plus
    /// 0x7F reach 0x80 unless they are all zero, and no sum carries into the next byte.
    @inlinable @inline(__always)
    package static func zeroBytes(_ word: UInt64) -> UInt64 { ~(((word & lowBits) &+ lowBits) | word) & highBits }

    /// The high bit of each zero byte of `word`, and perhaps of a 0x01 byte above one (a
    /// borrow): one instruction fewer than `zeroBytes`, for scans that check what it flags.
    /// Never misses a zero byte, and flags none when the word has none.
    @inlinable @inline(__always)
    package static func zeroBytesOrAfter(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highBits }

    /// The high bit of each byte equal to `byte`, and of no other.
    @inlinable @inline(__always)
    package static func bytes(equalTo byte: UInt8, in word: UInt64) -> UInt64 { zeroBytes(word ^ repeated(byte)) }

    /// The high bit of each byte below `bound` (at most 0x80), exact when no byte of `word` is
    /// beyond ASCII (then no subtraction borrows from the next byte).
    @inlinable @inline(__always)
    package static func asciiBytes(below bound: UInt8, in word: UInt64) -> UInt64 { (word &- repeated(bound)) & ~word & highBits }

    /// The high bit of each byte that is NUL or beyond ASCII (at or above 0x80), exactly where
    /// the first such byte is; after it, a borrow may flag a 0x01 byte too.
    @inlinable @inline(__always)
    package static func nulOrNonASCII(_ word: UInt64) -> UInt64 { (word | zeroBytesOrAfter(word)) & highBits }

    /// `word` with its ASCII capitals lowercased; its bytes must all be ASCII. A byte from 0x41
    /// to 0x5A is at least `A` and not past `Z`: its high bit of the two sums, moved to 0x20.
    @inlinable @inline(__always)
    package static func lowercasedASCII(_ word: UInt64) -> UInt64 {
        let upper = (word &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(word &+ 0x2525_2525_2525_2525) & highBits
        return word | (upper &>> 2)
    }

    /// How many bytes of `word` are UTF-8 continuation bytes (10xxxxxx).
    @inlinable @inline(__always)
    package static func continuationBytes(_ word: UInt64) -> Int { (word & ~(word &<< 1) & highBits).nonzeroBitCount }
}
