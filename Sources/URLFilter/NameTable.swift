/// Names (host names, domains) hashed to the filters that need them, looked up straight from
/// a URL's bytes without building a string: the table behind `HostAnchoredIndex` and
/// `DomainConditionIndex`. Names are stored lowercase and compared case-insensitively.
struct NameTable<Payload: Sendable>: Sendable {
    private struct Entry: Sendable {
        var hash: UInt64
        var name: Range<Int32>
        var payloads: Range<Int32>
    }

    /// Open addressing over `entries`: slot value entry + 1, 0 empty.
    private var slots: [Int32] = []
    private var entries: [Entry] = []
    private var names: [UInt8] = []
    private var payloads: [Payload] = []

    var isEmpty: Bool { entries.isEmpty }

    init(_ items: [(name: [UInt8], payload: Payload)]) {
        var byName: [[UInt8]: [Payload]] = [:]
        var order: [[UInt8]] = []
        for (name, payload) in items {
            if byName[name] == nil { order.append(name) }
            byName[name, default: []].append(payload)
        }
        var capacity = 16
        while capacity < order.count * 2 { capacity *= 2 }
        slots = [Int32](repeating: 0, count: capacity)
        for name in order {
            let start = Int32(payloads.count)
            payloads += byName[name]!
            let hash = name.withUnsafeBufferPointer { Self.hash($0, 0..<$0.count) }
            entries.append(Entry(hash: hash, name: Int32(names.count)..<Int32(names.count + name.count), payloads: start..<Int32(payloads.count)))
            names += name
            var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(entries.count)
        }
    }

    /// FNV-1a of the lowercased bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for index in range { hash = (hash ^ UInt64(RequiredLiteral.lowercase(bytes[index]))) &* 0x100_0000_01b3 }
        return hash
    }

    /// The payloads of the name `url[range]`, compared case-insensitively.
    func find(_ url: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (Payload) -> Void) {
        guard !entries.isEmpty else { return }
        let hash = Self.hash(url, range)
        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[slot] != 0 {
            let entry = entries[Int(slots[slot]) - 1]
            if entry.hash == hash, entry.name.count == range.count,
               zip(names[Int(entry.name.lowerBound)..<Int(entry.name.upperBound)], url[range]).allSatisfy({ $0 == RequiredLiteral.lowercase($1) }) {
                for payload in payloads[Int(entry.payloads.lowerBound)..<Int(entry.payloads.upperBound)] { body(payload) }
                return
            }
            slot = (slot + 1) & (slots.count - 1)
        }
    }
}
