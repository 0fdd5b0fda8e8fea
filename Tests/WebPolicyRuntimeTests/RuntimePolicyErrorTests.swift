import Foundation
import Testing
import WebPolicyRuntime
import TestSupport

/// A compiled folder broken in each way an app can meet: every one is refused with a
/// `RuntimePolicyError` that says what and where, never a crash or a silent default.
@Suite("Runtime policy errors")
struct RuntimePolicyErrorTests {
    /// The https-and-trackers case: one manifest, one list.
    static let good = "Tests/Fixtures/runtime/https-and-trackers/compiled"

    static func manifestFile(in folder: URL) throws -> URL {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".manifest.json") })
        return folder.appendingPathComponent(name)
    }

    static func listFile(in folder: URL) throws -> URL {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".content-rules.json") })
        return folder.appendingPathComponent(name)
    }

    /// Replaces text in a file of the folder.
    static func edit(_ file: URL, _ transform: (String) -> String) throws {
        try transform(String(contentsOf: file, encoding: .utf8)).write(to: file, atomically: true, encoding: .utf8)
    }

    static func load(_ folder: URL) -> RuntimePolicyError? {
        do {
            _ = try RuntimePolicy(compiledDirectory: folder)
            return nil
        } catch {
            return error
        }
    }

    @Test func theGoodFolderLoads() throws {
        let policy = try RuntimePolicy(compiledDirectory: Fixtures.url(Self.good))
        #expect(policy.contentRuleLists.count == 1)
        #expect(policy.contentRuleLists[0].identifier.hasPrefix("https-and-trackers-"))
    }

    @Test func aNewerMajorVersionIsRefused() throws {
        let folder = try Fixtures.scratchCopy(of: Self.good)
        try Self.edit(Self.manifestFile(in: folder)) { $0.replacingOccurrences(of: "\"webpolicyManifest\": 1", with: "\"webpolicyManifest\": \(Manifest.formatVersion + 1)") }
        let error = try #require(Self.load(folder))
        #expect(error == .unsupportedManifestVersion(found: Manifest.formatVersion + 1, supported: Manifest.formatVersion))
        #expect(error.description.contains("written by a newer webpolicy"))
    }

    @Test func unknownMembersOfTheSameVersionAreIgnored() throws {
        let folder = try Fixtures.scratchCopy(of: Self.good)
        try Self.edit(Self.manifestFile(in: folder)) { $0.replacingOccurrences(of: "\"webpolicyManifest\": 1,", with: "\"webpolicyManifest\": 1,\n  \"addedLater\": {\"x\": [1, 2]},") }
        #expect(Self.load(folder) == nil)
    }

    @Test func aMissingListIsNamed() throws {
        let folder = try Fixtures.scratchCopy(of: Self.good)
        let list = try Self.listFile(in: folder)
        try FileManager.default.removeItem(at: list)
        let error = try #require(Self.load(folder))
        guard case .missingList(let identifier, let file) = error else { Issue.record("\(error)"); return }
        #expect(file == list.lastPathComponent)
        #expect(identifier.hasPrefix("https-and-trackers-"))
    }

    @Test func aStaleListIsRefused() throws {
        let folder = try Fixtures.scratchCopy(of: Self.good)
        try Self.edit(Self.listFile(in: folder)) { $0 + " " }
        let error = try #require(Self.load(folder))
        guard case .staleList = error else { Issue.record("\(error)"); return }
        #expect(error.description.contains("a stale file"))
    }

    @Test func aListWebKitRefusesIsRefusedWithItsPosition() throws {
        let folder = try Fixtures.scratchCopy(of: Self.good)
        let list = try Self.listFile(in: folder)
        let broken = "[\n  {\"trigger\": {\"url-filter\": \"a(\"}, \"action\": {\"type\": \"block\"}}\n]\n"
        try broken.write(to: list, atomically: true, encoding: .utf8)
        // Without its SHA-256 the manifest cannot tell the file is stale: WebKit's parser must.
        try Self.edit(Self.manifestFile(in: folder)) { text in
            text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("\"sha256\"") }.joined(separator: "\n")
        }
        let error = try #require(Self.load(folder))
        guard case .invalidList(_, let file, _, let line, let column) = error else { Issue.record("\(error)"); return }
        #expect(file == list.lastPathComponent)
        #expect(line == 2 && column > 1, "\(error)")
    }

    @Test func aManifestThatIsNotJSONIsRefusedAtItsPosition() throws {
        let folder = try Fixtures.scratchCopy(of: Self.good)
        try Self.edit(Self.manifestFile(in: folder)) { $0.replacingOccurrences(of: "\"policy\": {", with: "\"policy\": {,") }
        let error = try #require(Self.load(folder))
        guard case .invalidManifest(_, let line, _) = error else { Issue.record("\(error)"); return }
        #expect(line == 3, "\(error)")
    }

    @Test func aTruncatedManifestIsRefusedWhereItEnds() throws {
        let folder = try Fixtures.scratchCopy(of: Self.good)
        let manifest = try Self.manifestFile(in: folder)
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try String(text.prefix(text.count / 2)).write(to: manifest, atomically: true, encoding: .utf8)
        let error = try #require(Self.load(folder))
        guard case .invalidManifest(let message, let line, _) = error else { Issue.record("\(error)"); return }
        #expect(line > 1 && !message.isEmpty, "\(error)")
    }

    @Test func aTruncatedListIsRefusedAsStaleOrAsJSONWebKitCannotRead() throws {
        let folder = try Fixtures.scratchCopy(of: Self.good)
        let list = try Self.listFile(in: folder)
        let text = try String(contentsOf: list, encoding: .utf8)
        try String(text.prefix(text.count / 2)).write(to: list, atomically: true, encoding: .utf8)
        guard case .staleList = try #require(Self.load(folder)) else { Issue.record("the SHA-256 should catch it first"); return }
        try Self.edit(Self.manifestFile(in: folder)) { text in
            text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("\"sha256\"") }.joined(separator: "\n")
        }
        let error = try #require(Self.load(folder))
        guard case .invalidList(_, _, let message, _, _) = error else { Issue.record("\(error)"); return }
        #expect(!message.isEmpty)
    }

    @Test func aMemberOfTheWrongKindIsRefused() throws {
        let folder = try Fixtures.scratchCopy(of: Self.good)
        try Self.edit(Self.manifestFile(in: folder)) { $0.replacingOccurrences(of: "\"cookies\": []", with: "\"cookies\": [7]") }
        let error = try #require(Self.load(folder))
        #expect(error.description == "manifest 13:15: each of \"cookies\" must be an object, not a number", "\(error)")
    }

    @Test func aFolderWithoutOneManifestIsRefused() throws {
        let empty = TemporaryFolder.location("webpolicy-empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(Self.load(empty)?.description.contains("holds no *.manifest.json") == true)
        let folder = try Fixtures.scratchCopy(of: Self.good)
        try FileManager.default.copyItem(at: Self.manifestFile(in: folder), to: folder.appendingPathComponent("second.manifest.json"))
        #expect(Self.load(folder)?.description.contains("holds 2 manifests") == true)
        #expect(Self.load(folder.appendingPathComponent("no-such-folder"))?.description.contains("cannot be read as a folder") == true)
    }

    @Test func listsGivenAsBytesMustAllBeThere() throws {
        let folder = Fixtures.url(Self.good)
        let manifest = try Data(contentsOf: Self.manifestFile(in: folder))
        #expect(throws: RuntimePolicyError.self) { try RuntimePolicy(manifest: manifest, contentRuleLists: []) }
        let list = try Data(contentsOf: Self.listFile(in: folder))
        #expect(try RuntimePolicy(manifest: manifest, contentRuleLists: [list]).contentRuleLists.count == 1)
    }
}
