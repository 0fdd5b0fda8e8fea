import Foundation
import Testing
import WebPolicyRuntime
import TestSupport

/// The engine images `webpolicy compile` writes beside each list: an app maps them instead of
/// building its engines, and every way an image can be unusable — missing, cut short,
/// damaged, of another format or layout, built from another list — is caught, reported with
/// its reason in `listLoads`, and the engine built from the list decides exactly as the image
/// would have. Through the public API only, as an app loads a compiled folder.
@Suite("Engine images")
struct EngineImageTests {
    /// The example policies with content rules (one has none, so no list and no image).
    static var cases: [String] {
        RuntimeFixtureTests.cases.filter { name in
            ((try? FileManager.default.contentsOfDirectory(atPath: Fixtures.url(folder(name)).path)) ?? []).contains { $0.hasSuffix(".engine") }
        }
    }

    static func folder(_ name: String) -> String { "Tests/Fixtures/runtime/\(name)/compiled" }

    static func image(in folder: URL) throws -> URL {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".content-rules.engine") })
        return folder.appendingPathComponent(name)
    }

    /// Every answer the policy gives to the case's requests, reasons (with rule ids and lines) included.
    static func answers(_ policy: RuntimePolicy, _ name: String) throws -> [String] {
        try RuntimeFixtureTests.requests(Fixtures.url("Tests/Fixtures/runtime/\(name)/requests.json")).map { request in
            let decision = policy.evaluate(request)
            return "\(decision.verdict) \(decision.finalURL) \(decision.cookies) \(decision.actions) \(decision.reason)"
        }
    }

    @Test func theExamplesWithListsHaveImages() {
        #expect(Self.cases.count >= 4, "\(Self.cases)")
    }

    @Test(arguments: cases)
    func everyCompiledFolderLoadsFromItsImages(name: String) throws {
        let policy = try RuntimePolicy(compiledDirectory: Fixtures.url(Self.folder(name)))
        #expect(!policy.listLoads.isEmpty)
        for load in policy.listLoads {
            guard case .image(let file) = load.source else { Issue.record("\(load)"); continue }
            #expect(file.hasSuffix(".content-rules.engine"))
        }
        // With images the per-rule sources are not read: the images hold them.
        #expect(policy.manifest.contentRuleLists.allSatisfy { $0.sources.isEmpty })
    }

    @Test(arguments: cases)
    func withoutItsImageAListIsBuiltAndDecidesTheSame(name: String) throws {
        let expected = try Self.answers(try RuntimePolicy(compiledDirectory: Fixtures.url(Self.folder(name))), name)
        let folder = try Fixtures.scratchCopy(of: Self.folder(name))
        try FileManager.default.removeItem(at: Self.image(in: folder))
        let rebuilt = try RuntimePolicy(compiledDirectory: folder)
        guard case .list(let reason) = rebuilt.listLoads.first?.source else { Issue.record("\(rebuilt.listLoads)"); return }
        #expect(reason.contains("cannot open it"), "\(reason)")
        #expect(try Self.answers(rebuilt, name) == expected)
        #expect(rebuilt.manifest.contentRuleLists.allSatisfy { !$0.sources.isEmpty }, "a rebuild reads the sources")
    }

    /// Each damage, and the reason it must be reported with.
    static let damages: [(name: String, reason: String, damage: @Sendable (inout [UInt8]) -> Void)] = [
        ("cut short", "cut short", { $0.removeLast($0.count / 3) }),
        ("a byte changed in its tables", "checksum does not match", { $0[$0.count - 40] ^= 0x5A }),
        ("another format version", "format \(EngineImageFile.formatVersion + 1)", { $0[8] = UInt8(EngineImageFile.formatVersion + 1) }),
        ("another memory layout", "another memory layout", { $0[12] ^= 0xFF }),
        ("the other byte order", "other byte order", { $0[16...19] = [1, 2, 3, 4] }),
        ("not an image at all", "not an engine image", { $0 = Array(String(repeating: "[{\"trigger\": {}}]", count: 20).utf8) }),
        ("shorter than a header", "shorter than an engine image's header", { $0 = Array($0.prefix(40)) }),
        ("built from another list", "another version of the list", { $0[60] ^= 0x01 }),
    ]

    @Test(arguments: 0..<damages.count)
    func aDamagedImageIsRebuiltWithItsReason(damage index: Int) throws {
        let (label, expectedReason, damage) = Self.damages[index]
        for name in Self.cases {
            let expected = try Self.answers(try RuntimePolicy(compiledDirectory: Fixtures.url(Self.folder(name))), name)
            let folder = try Fixtures.scratchCopy(of: Self.folder(name))
            let image = try Self.image(in: folder)
            var bytes = [UInt8](try Data(contentsOf: image))
            damage(&bytes)
            try Data(bytes).write(to: image)
            let policy = try RuntimePolicy(compiledDirectory: folder)
            guard case .list(let reason) = policy.listLoads.first?.source else { Issue.record("\(label): \(policy.listLoads)"); continue }
            #expect(reason.contains(expectedReason), "\(label): \(reason)")
            #expect(try Self.answers(policy, name) == expected, "\(label), \(name)")
        }
    }

    @Test func anEngineBuiltFromTheListIsCachedForTheNextLaunch() throws {
        let name = "https-and-trackers"
        let expected = try Self.answers(try RuntimePolicy(compiledDirectory: Fixtures.url(Self.folder(name))), name)
        let folder = try Fixtures.scratchCopy(of: Self.folder(name))
        try FileManager.default.removeItem(at: Self.image(in: folder))
        let cache = TemporaryFolder.location("webpolicy-image-cache")
        defer { try? FileManager.default.removeItem(at: cache) }

        let first = try RuntimePolicy(compiledDirectory: folder, imageCache: cache)
        guard case .list = first.listLoads[0].source else { Issue.record("\(first.listLoads)"); return }
        #expect(first.listLoads[0].cacheProblem == nil)
        let cached = cache.appendingPathComponent(first.listLoads[0].identifier + ".engine")
        #expect(FileManager.default.fileExists(atPath: cached.path))

        let second = try RuntimePolicy(compiledDirectory: folder, imageCache: cache)
        #expect(second.listLoads[0].source == .cachedImage(path: cached.path))
        #expect(try Self.answers(second, name) == expected)

        // A damaged cache file is never trusted: the engine is built again and the file replaced.
        var bytes = [UInt8](try Data(contentsOf: cached))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: cached)
        let third = try RuntimePolicy(compiledDirectory: folder, imageCache: cache)
        guard case .list(let reason) = third.listLoads[0].source else { Issue.record("\(third.listLoads)"); return }
        #expect(reason.contains("the cached image was not usable either"), "\(reason)")
        #expect(try Self.answers(third, name) == expected)
        #expect(try RuntimePolicy(compiledDirectory: folder, imageCache: cache).listLoads[0].source == .cachedImage(path: cached.path))
    }

    /// A list replaced by another of the same size: the image (matched by the manifest's
    /// SHA-256 and the size) still decides, and the list is checked when WebKit needs it.
    @Test func aListChangedAtTheSameSizeIsCaughtWhenWebKitAsksForIt() throws {
        let folder = try Fixtures.scratchCopy(of: Self.folder("https-and-trackers"))
        let list = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".content-rules.json") })
        let url = folder.appendingPathComponent(list)
        var bytes = [UInt8](try Data(contentsOf: url))
        let space = try #require(bytes.firstIndex(of: 0x20))
        bytes[space] = 0x0A
        try Data(bytes).write(to: url)
        let policy = try RuntimePolicy(compiledDirectory: folder)
        #expect(throws: RuntimePolicyError.self) { _ = try policy.contentRuleLists[0].json() }
        do {
            _ = try policy.contentRuleLists[0].json()
        } catch {
            guard case .staleList = error else { Issue.record("\(error)"); return }
        }
    }
}
