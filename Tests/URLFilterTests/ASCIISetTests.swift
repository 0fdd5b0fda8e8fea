import Testing
@testable import URLFilter

@Suite("ASCII sets")
struct ASCIISetTests {
    /// `admitsAny(of:)` answers in two words what `admits` answers byte by byte, for plain and
    /// inverted sets, NUL and every edge of the two words.
    @Test func admitsAnyIsAdmitsOverEveryByte() {
        var random = SplitMix64(state: 0xA5C11)
        func randomSet(_ bits: Int) -> ASCIISet {
            var set = ASCIISet()
            for _ in 0..<bits { set.insert(UInt8(random.next() % 128)) }
            return set
        }
        let edges: [UInt8] = [0, 1, 62, 63, 64, 65, 126, 127]
        for trial in 0..<2_000 {
            var set = trial % 7 == 0 ? ASCIISet() : randomSet(Int(random.next() % 6))
            for edge in edges where random.next() % 9 == 0 { set.insert(edge) }
            if random.next() % 2 == 0 { set.invert() }
            let other = trial % 5 == 0 ? HostAnchoredIndex.nameBytes : randomSet(Int(random.next() % 4))
            let byByte = (0..<128).contains { other.contains(UInt8($0)) && set.admits(UInt8($0)) }
            #expect(set.admitsAny(of: other) == byByte, "\(set) against \(other)")
        }
    }
}
