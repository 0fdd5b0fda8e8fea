import Testing
import URLFilter
@testable import WebPolicyKit

/// The word-at-a-time byte tests against the plain byte-by-byte ones, on random bytes mostly
/// printable, at every offset and length (a word's test must never miss a byte it flags).
@Suite("Printable ASCII, eight bytes at a time")
struct PrintableASCIITests {
    static func randomBytes(_ random: inout SplitMix64, count: Int) -> [UInt8] {
        (0..<count).map { _ in
            switch random.next() % 40 {
            case 0: return UInt8(truncatingIfNeeded: random.next() % 0x20)  // control, NUL among them
            case 1: return UInt8(0x80 + random.next() % 0x80)  // beyond ASCII
            case 2: return [0x1F, 0x20, 0x7F, 0x80, 0x00, 0x0A, 0x0D, 0xFF][Int(random.next() % 8)]  // the edges
            default: return UInt8(0x20 + random.next() % 0x60)
            }
        }
    }

    @Test func theFirstOtherByteIsTheOneAByteByByteSearchFinds() {
        var random = SplitMix64(state: 11)
        for _ in 0..<2_000 {
            let bytes = Self.randomBytes(&random, count: Int(random.next() % 70))
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...buffer.count {
                    let expected = buffer[start...].firstIndex { !(0x20...0x7F).contains($0) } ?? buffer.count
                    #expect(PrintableASCII.firstOther(in: buffer, from: start, to: buffer.count) == expected)
                }
            }
        }
    }

    @Test func aFieldEndsWhereAByteByByteSearchSays() {
        var random = SplitMix64(state: 13)
        for _ in 0..<2_000 {
            var bytes = Self.randomBytes(&random, count: Int(random.next() % 70))
            for _ in 0..<Int(random.next() % 3) where !bytes.isEmpty { bytes[Int(random.next() % UInt64(bytes.count))] = random.next() % 2 == 0 ? 0x20 : 0x09 }
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...buffer.count {
                    let expected = buffer[start...].firstIndex { $0 == 0x20 || $0 == 0x09 || $0 >= 0x80 } ?? buffer.count
                    #expect(PrintableASCII.firstFieldEnd(in: buffer, from: start, to: buffer.count) == expected)
                }
            }
        }
    }

    @Test func asciiWithoutNULIsWhatEveryByteSays() {
        var random = SplitMix64(state: 12)
        var both = (yes: 0, no: 0)
        for _ in 0..<5_000 {
            var bytes = (0..<Int(random.next() % 40)).map { _ in UInt8(1 + random.next() % 0x7F) }
            if random.next() % 2 == 0, !bytes.isEmpty { bytes[Int(random.next() % UInt64(bytes.count))] = [0x00, 0x80, 0xC3, 0xFF][Int(random.next() % 4)] }
            let expected = bytes.allSatisfy { $0 < 0x80 && $0 != 0 }
            #expect(bytes.withUnsafeBufferPointer(PrintableASCII.isASCIIWithoutNUL) == expected, "\(bytes)")
            if expected { both.yes += 1 } else { both.no += 1 }
        }
        #expect(both.yes > 1_000 && both.no > 1_000)
    }
}
