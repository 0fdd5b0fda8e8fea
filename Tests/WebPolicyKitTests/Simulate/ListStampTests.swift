#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime
import TestSupport

/// A warm run finds a list's image by the list file's stamp instead of reading and hashing the
/// list — only while the file is the one the stamp was taken of, unchanged.
@Suite("List stamps in the engine cache")
struct ListStampTests {
    static let blockA = #"[{"trigger": {"url-filter": "aaaa"}, "action": {"type": "block"}}]"#
    static let blockB = #"[{"trigger": {"url-filter": "bbbb"}, "action": {"type": "block"}}]"#  // the same size

    /// A cache whose clock runs ten seconds ahead: a file written now counts as settled.
    static func cache(in folder: URL, ahead: TimeInterval = 10) -> EngineCache {
        var cache = EngineCache(directory: folder.appendingPathComponent("cache"))
        cache.now = { Date().addingTimeInterval(ahead) }
        return cache
    }

    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    static func modified(_ status: stat) -> ListStamp.Timestamp {
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return ListStamp.Timestamp(seconds: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec))
    }

    static func identity(_ text: String) -> EngineImageFile.ListIdentity { EngineImageFile.ListIdentity(of: Array(text.utf8)) }

    /// A folder holding `list.json` with `text`, and a cache told to remember it (which it
    /// does only when its clock, `ahead` of the real one, finds the file settled).
    static func rememberedList(_ text: String, ahead: TimeInterval = 10) throws -> (folder: URL, path: String, cache: EngineCache) {
        let folder = try TemporaryFolder.make("list-stamps")
        let path = folder.appendingPathComponent("list.json").path
        try write(text, to: path)
        let cache = cache(in: folder, ahead: ahead)
        cache.remember(identity(text), of: path, stampedBefore: ListStamp.of(path))
        return (folder, path, cache)
    }

    @Test func aSettledFileIsKnownByItsStampUntilItChanges() throws {
        let (folder, path, cache) = try Self.rememberedList(Self.blockA)
        #expect(cache.rememberedIdentity(of: path) == Self.identity(Self.blockA))

        // Rewritten in place with other bytes of the same size, its modification time set back
        // to the nanosecond (as `touch -d` or a careless tool might): the status-change time
        // still moved.
        var before = stat()
        #expect(stat(path, &before) == 0)
        try Self.write(Self.blockB, to: path)
        #if canImport(Darwin)
        var times = [before.st_atimespec, before.st_mtimespec]
        #else
        var times = [before.st_atim, before.st_mtim]
        #endif
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(ListStamp.of(path)?.modified == Self.modified(before), "the modification time is the old one")
        #expect(cache.rememberedIdentity(of: path) == nil)

        // Another file put at the same path: another inode.
        cache.remember(Self.identity(Self.blockB), of: path, stampedBefore: ListStamp.of(path))
        #expect(cache.rememberedIdentity(of: path) == Self.identity(Self.blockB))
        let other = folder.appendingPathComponent("other.json").path
        try Self.write(Self.blockB, to: other)
        _ = rename(other, path)
        #expect(cache.rememberedIdentity(of: path) == nil)
    }

    @Test func aFileWrittenJustNowIsNotRemembered() throws {
        let (folder, path, cache) = try Self.rememberedList(Self.blockA, ahead: 0)
        #expect(cache.rememberedIdentity(of: path) == nil)
        // Nor one that changed while it was read: the stamp taken before no longer holds.
        let settled = Self.cache(in: folder)
        let stamp = ListStamp.of(path)
        try Self.write(Self.blockB, to: path)
        settled.remember(Self.identity(Self.blockA), of: path, stampedBefore: stamp)
        #expect(settled.rememberedIdentity(of: path) == nil)
    }

    @Test func aDamagedStampsFileIsNoStamps() throws {
        let (_, path, cache) = try Self.rememberedList(Self.blockA)
        #expect(cache.rememberedIdentity(of: path) != nil)
        let stamps = cache.directory.appendingPathComponent(EngineCache.stampsFileName)
        for damaged in ["", "webpolicy list stamps 1\n1 2 3\n", "garbage\n", "webpolicy list stamps 1\n" + String(repeating: "x ", count: 9) + "\n"] {
            try damaged.write(to: stamps, atomically: true, encoding: .utf8)
            #expect(cache.rememberedIdentity(of: path) == nil)
        }
        #expect(cache.clean() > 0)
        #expect(!FileManager.default.fileExists(atPath: stamps.path), "cleaning the cache forgets the stamps too")
    }

    /// Through a simulation: the second run decides by the list as it is now, whether it
    /// changed (read again) or not (found by its stamp).
    @Test func aSimulationDecidesByTheListAsItIsNow() throws {
        let folder = try TemporaryFolder.make("list-stamps")
        let list = folder.appendingPathComponent("list.json").path
        let trace = folder.appendingPathComponent("t.trace").path
        try "page https://site.example/\nscript https://x.example/aaaa.js\nscript https://x.example/bbbb.js\n".write(toFile: trace, atomically: true, encoding: .utf8)
        func verdicts() throws -> [String] {
            var session = SimulationSession(contentRulesPaths: [list])
            session.engineCache = Self.cache(in: folder)
            return try session.run(paths: [trace]).report.all.map(\.verdict.rawValue)
        }
        try Self.write(Self.blockA, to: list)
        #expect(try verdicts() == ["allow", "block", "allow"])
        #expect(Self.cache(in: folder).rememberedIdentity(of: list) == Self.identity(Self.blockA))
        #expect(try verdicts() == ["allow", "block", "allow"], "found by its stamp")
        try Self.write(Self.blockB, to: list)
        #expect(try verdicts() == ["allow", "allow", "block"], "changed: read again")
    }
}
