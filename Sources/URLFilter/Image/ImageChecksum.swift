/// A 64-bit checksum of an image's bytes, verified before an image is used: it finds a file
/// that was cut short, overwritten or damaged on disk, at memory speed (four independent lanes
/// of multiply-and-rotate over 8-byte words, the construction of xxHash's 64-bit variant). Not
/// a defence against someone who means harm — the reader's bounds checks are that — and not
/// a content hash: the image's header names the SHA-256 of the list it was built from.
public enum ImageChecksum {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        ((accumulator &+ input &* prime2).rotatedLeft(31)) &* prime1
    }

    /// The checksum of `bytes` (what a damaged image's header must say to get past it: the
    /// fuzz target that damages images recomputes it).
    public static func of(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { of($0) }
    }

    package static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var hash: UInt64
        var offset = 0
        if count >= 32, let base = bytes.baseAddress {
            var lanes = (prime1 &+ prime2, prime2, UInt64(0), UInt64(0) &- prime1)
            while offset + 32 <= count {
                lanes.0 = round(lanes.0, base.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
                lanes.1 = round(lanes.1, base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self).littleEndian)
                lanes.2 = round(lanes.2, base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self).littleEndian)
                lanes.3 = round(lanes.3, base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self).littleEndian)
                offset += 32
            }
            hash = lanes.0.rotatedLeft(1) &+ lanes.1.rotatedLeft(7) &+ lanes.2.rotatedLeft(12) &+ lanes.3.rotatedLeft(18)
            for lane in [lanes.0, lanes.1, lanes.2, lanes.3] { hash = (hash ^ round(0, lane)) &* prime1 &+ prime4 }
        } else {
            hash = prime5
        }
        hash &+= UInt64(count)
        while offset < count {
            hash = ((hash ^ (UInt64(bytes[offset]) &* prime5)).rotatedLeft(11)) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
