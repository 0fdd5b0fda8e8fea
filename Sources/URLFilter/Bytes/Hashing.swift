/// The package's hash functions and their constants, once: FNV-1a (what names, suffixes and
/// fingerprints are hashed with, a byte or a number at a time) and Fibonacci hashing (a
/// multiply by 2^64 / φ whose high bits pick an open-addressing table's slot, since FNV's low
/// bits alone are weak for short names). The open-addressing tables that use them are named in
/// docs/decisions.md with why each is its own.
package enum Hashing {
    /// FNV-1a's 64-bit offset basis: where every FNV hash starts.
    @inlinable package static var fnvOffsetBasis: UInt64 { 0xcbf2_9ce4_8422_2325 }
    /// FNV-1a's 64-bit prime.
    @inlinable package static var fnvPrime: UInt64 { 0x100_0000_01b3 }
    /// 2^64 / φ, odd: Fibonacci hashing's multiplier (and SplitMix64's increment).
    @inlinable package static var golden: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    /// One FNV-1a step: `hash` taken over one more value.
    @inlinable @inline(__always)
    package static func fnv1a(_ hash: UInt64, _ value: UInt64) -> UInt64 { (hash ^ value) &* fnvPrime }

    /// FNV-1a of `bytes` from `start` to the end.
    @inlinable
    package static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> UInt64 {
        var hash = fnvOffsetBasis
        for index in start..<bytes.count { hash = fnv1a(hash, UInt64(bytes[index])) }
        return hash
    }

    /// The slot `hash` starts its probe at in a table of `1 << bits` slots: the high bits of
    /// its Fibonacci product.
    @inlinable @inline(__always)
    package static func fibonacciSlot(_ hash: UInt64, bits: Int) -> Int {
        Int(truncatingIfNeeded: (hash &* golden) &>> UInt64(64 &- bits))
    }

    /// A multiply by `golden`, then the product's high bits folded down: every input bit
    /// reaches the bits a table's slot and filter bit are taken from.
    @inlinable @inline(__always)
    package static func mix(_ value: UInt64) -> UInt64 {
        let product = value &* golden
        return product ^ (product &>> 29)
    }
}
