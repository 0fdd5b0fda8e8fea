/// Names (host names, domains) hashed to the filters that need them, looked up straight from
/// a URL's bytes without building a string: the table behind `HostAnchoredIndex` and
/// `DomainConditionIndex`. Names are stored lowercase and compared case-insensitively. Its
/// tables live in an engine image and are read in place.
struct NameTable<Payload: BitwiseCopyable & Sendable>: Sendable {
    struct Entry: BitwiseCopyable, Sendable {
        /// The low half of the name's hash: enough to pass over nearly every other name
        /// without comparing bytes.
        var hash: UInt32
        var nameStart: Int32
        var nameEnd: Int32
        var payloadStart: Int32
        var payloadEnd: Int32
    }

    /// Open addressing over `entries`: slot value entry + 1, 0 empty. A power of two, never full.
    private let slots: FlatTable<Int32>
    private let entries: FlatTable<Entry>
    private let names: FlatTable<UInt8>
    let payloads: FlatTable<Payload>
    /// One bit per hash value (a Bloom filter with one hash), made from the entries when the
    /// image is read: a URL's candidate names are nearly all absent, and the slot and entry a
    /// probe reads are cache misses in a table of tens of thousands of names (the profile of
    /// a real list: most of the host index's time), where this is a few kilobytes.
    private let filter: [UInt64]
    private let filterShift: UInt32

    var isEmpty: Bool { entries.count == 0 }

    /// The filter's bit for a name's hash (its low half, as entries keep it), mixed so that it
    /// does not follow the slot the same bits choose.
    @inline(__always)
    private static func filterBit(_ hash: UInt32, shift: UInt32) -> Int {
        Int((hash &* 0x9E37_79B1) >> shift)
    }

    static func write(_ items: [(name: [UInt8], payload: Payload)], into writer: inout ImageWriter) {
        // Items grouped by name, in the order names first appear, each name's payloads in
        // item order. Grouped through a table of item positions keyed by the name's own hash:
        // a dictionary of byte arrays hashed every name a byte at a time and kept an array of
        // payloads per name (a real list's 98,000 host names: 6 % of building its engine).
        let hashes = items.map { item in item.name.withUnsafeBufferPointer { Self.hash($0, 0..<$0.count) } }
        var groupCapacity = 16
        while groupCapacity < items.count * 2 { groupCapacity *= 2 }
        var groupSlots = [Int32](repeating: -1, count: groupCapacity)
        var firstItemOfGroup: [Int32] = []
        var groupOfItem = [Int32](repeating: 0, count: items.count)
        var sizeOfGroup: [Int32] = []
        for (position, item) in items.enumerated() {
            var slot = Int(truncatingIfNeeded: hashes[position]) & (groupCapacity - 1)
            while true {
                let group = groupSlots[slot]
                if group < 0 {
                    groupSlots[slot] = Int32(firstItemOfGroup.count)
                    groupOfItem[position] = Int32(firstItemOfGroup.count)
                    firstItemOfGroup.append(Int32(position))
                    sizeOfGroup.append(1)
                    break
                }
                let first = Int(firstItemOfGroup[Int(group)])
                if hashes[first] == hashes[position] && items[first].name == item.name {
                    groupOfItem[position] = group
                    sizeOfGroup[Int(group)] += 1
                    break
                }
                slot = (slot + 1) & (groupCapacity - 1)
            }
        }
        var payloadStartOfGroup = [Int32](repeating: 0, count: sizeOfGroup.count + 1)
        for group in sizeOfGroup.indices { payloadStartOfGroup[group + 1] = payloadStartOfGroup[group] + sizeOfGroup[group] }
        var payloads: [Payload] = []
        if let first = items.first {
            var filled = payloadStartOfGroup
            payloads = [Payload](repeating: first.payload, count: items.count)
            for (position, item) in items.enumerated() {
                let group = Int(groupOfItem[position])
                payloads[Int(filled[group])] = item.payload
                filled[group] += 1
            }
        }
        var capacity = 16
        while capacity < firstItemOfGroup.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: 0, count: capacity)
        var entries: [Entry] = []
        entries.reserveCapacity(firstItemOfGroup.count)
        var names: [UInt8] = []
        for (group, first) in firstItemOfGroup.enumerated() {
            let name = items[Int(first)].name, hash = hashes[Int(first)]
            entries.append(Entry(hash: UInt32(truncatingIfNeeded: hash), nameStart: Int32(names.count), nameEnd: Int32(names.count + name.count),
                                 payloadStart: payloadStartOfGroup[group], payloadEnd: payloadStartOfGroup[group + 1]))
            names += name
            var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(entries.count)
        }
        writer.write(slots)
        writer.write(entries)
        writer.write(names)
        writer.write(payloads)
    }

    /// Reads what `write` wrote and checks that every slot, name and payload range lies in
    /// its table and that a slot is free (a probe always ends); the caller checks payloads.
    init(reading reader: inout ImageReader, _ what: String) throws(ImageError) {
        slots = try reader.table(Int32.self, "\(what)'s slots")
        entries = try reader.table(Entry.self, "\(what)'s entries")
        names = try reader.table(UInt8.self, "\(what)'s names")
        payloads = try reader.table(Payload.self, "\(what)'s payloads")
        guard slots.count >= 1, slots.count & (slots.count - 1) == 0, entries.count < slots.count else {
            throw ImageError("\(what) has \(slots.count) slots for \(entries.count) names")
        }
        try slots.check(0..<Int32(entries.count + 1), "\(what)'s slots")
        let nameCount = Int32(names.count), payloadCount = Int32(payloads.count)
        // About eight bits a name, a power of two from 64 to 2^24: one in eight absent names
        // passes it.
        var bits: UInt32 = 6
        while bits < 24, 1 << bits < entries.count * 8 { bits += 1 }
        var filter = [UInt64](repeating: 0, count: (1 << Int(bits)) / 64)
        let shift = 32 - bits
        for entry in entries.buffer {
            guard entry.nameStart >= 0, entry.nameStart <= entry.nameEnd, entry.nameEnd <= nameCount,
                  entry.payloadStart >= 0, entry.payloadStart <= entry.payloadEnd, entry.payloadEnd <= payloadCount else {
                throw ImageError("\(what) has an entry outside its tables")
            }
            let bit = Self.filterBit(entry.hash, shift: shift)
            filter[bit >> 6] |= 1 << UInt64(bit & 63)
        }
        self.filter = filter
        filterShift = shift
    }

    /// FNV-1a of the lowercased bytes, from the last to the first: the names a host is looked
    /// up by are its tails, so each one's hash is the next shorter one's taken further
    /// (`hashStep`), and a host is hashed once, not once for each of its names.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64 {
        var hash = hashSeed
        for index in range.reversed() { hash = hashStep(hash, bytes[index]) }
        return hash
    }

    static var hashSeed: UInt64 { Hashing.fnvOffsetBasis }

    /// The hash of a name one byte longer at its start.
    @inline(__always)
    static func hashStep(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        Hashing.fnv1a(hash, UInt64(RequiredLiteral.lowercase(byte)))
    }

    /// The payloads of the name `url[range]`, compared case-insensitively.
    @inline(__always)
    func find(_ url: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (Payload) -> Void) {
        find(url, range, hash: Self.hash(url, range), body)
    }

    /// `find` of a name whose `hash` the caller has worked out.
    @inline(__always)
    func find(_ url: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, hash: UInt64, _ body: (Payload) -> Void) {
        guard !isEmpty else { return }
        let bit = Self.filterBit(UInt32(truncatingIfNeeded: hash), shift: filterShift)
        guard filter[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return }
        let slots = slots.buffer, mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let entry = entries[Int(slots[slot]) - 1]
            if entry.hash == UInt32(truncatingIfNeeded: hash), Int(entry.nameEnd - entry.nameStart) == range.count,
               zip(names.slice(Int(entry.nameStart)..<Int(entry.nameEnd)), url[range]).allSatisfy({ $0 == RequiredLiteral.lowercase($1) }) {
                for payload in payloads.slice(Int(entry.payloadStart)..<Int(entry.payloadEnd)) { body(payload) }
                return
            }
            slot = (slot + 1) & mask
        }
    }
}
