import URLFilter

/// The list's names by their bytes, for the byte path (`printableRegistrableDomain`): each
/// name once, with which of the three sets — rules, wildcards (`*.name`), exceptions
/// (`!name`) — hold it. A host's suffix is looked up by the FNV-1a hash of its bytes, which
/// the walk computes anyway, and compared byte for byte: no Substring is made, hashed by
/// Unicode (a String's hash normalises it) or compared as Characters. Looking up a page's top
/// host in the sets took 3,700 instructions (callgrind), most of them hashing Substrings.
struct PublicSuffixNameTable: Sendable {
    /// Which sets hold a name.
    struct Kinds: OptionSet, Sendable {
        let rawValue: UInt8
        static let rule = Kinds(rawValue: 1)
        static let wildcard = Kinds(rawValue: 2)
        static let exception = Kinds(rawValue: 4)
    }

    /// One bucket of the open-addressing table: empty while `kinds` is 0.
    private struct Slot: Sendable {
        var hash: UInt64 = 0
        var start: Int32 = 0
        var count: Int32 = 0
        var kinds: UInt8 = 0
    }

    private var slots: [Slot]
    /// Every name's bytes, one after another.
    private var bytes: [UInt8] = []
    private var used = 0

    init() {
        slots = [Slot](repeating: Slot(), count: 16)
    }

    /// FNV-1a of `bytes` from `start`: what the walk hashes each suffix of a host with.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt64 { Hashing.fnv1a(bytes, from: start) }

    /// Adds `name` (ASCII) to the sets `kinds` names.
    mutating func insert(_ name: Substring, _ kinds: Kinds) {
        var name = name
        name.withUTF8 { insert($0, kinds) }
    }

    private mutating func insert(_ name: UnsafeBufferPointer<UInt8>, _ kinds: Kinds) {
        let hash = Self.hash(name, from: 0)
        if let slot = find(name, hash) {
            slots[slot].kinds |= kinds.rawValue
            return
        }
        // At most half full, so that a probe meets an empty slot soon.
        if (used + 1) * 2 > slots.count { grow() }
        var slot = position(hash)
        while slots[slot].kinds != 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = Slot(hash: hash, start: Int32(bytes.count), count: Int32(name.count), kinds: kinds.rawValue)
        bytes.append(contentsOf: name)
        used += 1
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(), count: old.count * 2)
        for entry in old where entry.kinds != 0 {
            var slot = position(entry.hash)
            while slots[slot].kinds != 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = entry
        }
    }

    @inline(__always)
    private func position(_ hash: UInt64) -> Int {
        Hashing.fibonacciSlot(hash, bits: slots.count.trailingZeroBitCount)
    }

    /// The sets that hold the suffix of `host` from `start`, whose hash is `hash`.
    func kinds(_ host: UnsafeBufferPointer<UInt8>, from start: Int, hash: UInt64) -> Kinds {
        guard let slot = find(UnsafeBufferPointer(rebasing: host[start...]), hash) else { return [] }
        return Kinds(rawValue: slots[slot].kinds)
    }

    private func find(_ name: UnsafeBufferPointer<UInt8>, _ hash: UInt64) -> Int? {
        slots.withUnsafeBufferPointer { slots in
            bytes.withUnsafeBufferPointer { bytes in
                var slot = position(hash)
                while slots[slot].kinds != 0 {
                    let entry = slots[slot]
                    if entry.hash == hash, Int(entry.count) == name.count,
                       UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<(Int(entry.start) + name.count)]).elementsEqual(name) {
                        return slot
                    }
                    slot = (slot + 1) & (slots.count - 1)
                }
                return nil
            }
        }
    }
}
