import Testing
import URLFilter
import WebPolicyRuntime

/// Findings of the engine-image fuzz target (ci/fuzz/Sources/FuzzEngineImage): images that pass
/// the header and checksum but hold values no builder writes. Each must be refused with a
/// reason, never trap. The reproducers are in ci/fuzz/regressions/FuzzEngineImage.
@Suite("Fuzz findings: engine images")
struct EngineImageFuzzFindingsTests {
    static let list = #"[{"trigger": {"url-filter": "tracker"}, "action": {"type": "block"}}]"#

    /// The list's image with `value` written at `offset` of the file and its checksum made
    /// right again, as the fuzz target damages images.
    static func image(with value: Int64, at offset: Int) throws -> (bytes: [UInt8], list: EngineImageFile.ListIdentity) {
        let rules = try #require(JSONDocument.parse(list).get().array).map { $0.jsonValue }
        let engine = ContentRuleEngine(rules: rules.enumerated().map { ($1, RuleOrigin(index: $0, id: nil, location: nil)) })
        let identity = EngineImageFile.ListIdentity(of: Array(list.utf8))
        var bytes = EngineImageFile.bytes(of: engine, list: identity)
        withUnsafeBytes(of: value.littleEndian) { for (index, byte) in $0.enumerated() { bytes[offset + index] = byte } }
        let checksum = bytes.withUnsafeBytes { ImageChecksum.of(UnsafeRawBufferPointer(rebasing: $0[128...])) }
        withUnsafeBytes(of: checksum.littleEndian) { for (index, byte) in $0.enumerated() { bytes[32 + index] = byte } }
        return (bytes, identity)
    }

    /// The body opens with the rule counts (a table of three Int64 after its 16-byte preamble);
    /// the third is the first rule's index. Int64.min made `abs` trap (CI's 25-second pass,
    /// after 35,040 executions: `regressions/FuzzEngineImage/first-index-int64-min`).
    @Test(arguments: [Int64.min, Int64.min + 1, -Int64(Int32.max), Int64(Int32.max), Int64.max])
    func aFirstRuleIndexOutOfRangeIsRefusedWithItsReason(value: Int64) throws {
        let (bytes, identity) = try Self.image(with: value, at: 128 + 16 + 16)
        do {
            _ = try EngineImageFile.engine(from: ImageBytes(copying: bytes), list: identity)
            Issue.record("an image whose first rule's index is \(value) was accepted")
        } catch {
            #expect(error.reason == "the first rule's index is \(value)")
        }
    }

    @Test func theUndamagedImageLoads() throws {
        let (bytes, identity) = try Self.image(with: 0, at: 128 + 16 + 16)
        let engine = try EngineImageFile.engine(from: ImageBytes(copying: bytes), list: identity)
        #expect(engine.count == 1)
    }
}
