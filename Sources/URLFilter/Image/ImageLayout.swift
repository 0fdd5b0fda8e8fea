/// The memory layout of every record type an engine image stores as it lies in memory, as
/// numbers: an image records them (folded into one fingerprint) and a reader whose layout
/// differs — another compiler, another architecture — rebuilds the engine instead of reading
/// records it would misread. The element size of each table is checked too, table by table.
public enum ImageLayout {
    /// This module's record types: size, stride and alignment of each.
    public static var urlFilterRecords: [Int] {
        func layout<T>(_: T.Type) -> [Int] { [MemoryLayout<T>.size, MemoryLayout<T>.stride, MemoryLayout<T>.alignment] }
        return layout(AhoCorasick.Node.self) + layout(AhoCorasick.Edge.self) + layout(NameTable<HostAnchoredIndex.Payload>.Entry.self)
            + layout(HostAnchoredIndex.Payload.self) + layout(HostAnchoredIndex.NextSet.self) + layout(DomainConditionIndex.Payload.self) + layout(FilterAutomata.Record.self)
            + layout(FilterAutomata.NFANode.self) + layout(FilterAutomata.NFATransition.self)
    }

    /// FNV-1a over numbers, for a fingerprint of layouts.
    public static func fingerprint(_ numbers: [Int]) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for number in numbers {
            for shift in stride(from: 0, to: 64, by: 8) { hash = (hash ^ UInt32(truncatingIfNeeded: number >> shift) & 0xFF) &* 0x0100_0193 }
        }
        return hash
    }
}
