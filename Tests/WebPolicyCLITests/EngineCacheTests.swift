import Foundation
import Testing

/// `simulate`, `explain` and `diff` keep each list's engine as an image in a cache folder,
/// keyed by content: the second run maps it instead of building it, and decides the same; a
/// damaged, cut-short or foreign file there is rebuilt, never trusted and never an error.
@Suite("engine cache (the binary)")
struct EngineCacheTests {
    static let list = #"""
    [
      {"trigger": {"url-filter": "tracker"}, "action": {"type": "block"}},
      {"trigger": {"url-filter": "^https?://([^/]+\\.)?ads\\.example\\.net/banner"}, "action": {"type": "block"}},
      {"trigger": {"url-filter": ".*", "if-domain": ["*news.example"]}, "action": {"type": "css-display-none", "selector": ".promo"}}
    ]
    """#
    static let trace = """
    page https://news.example/ expect=allow
    script https://x.example/tracker.js expect=block
    image https://ads.example.net/banner/1.png expect=block
    image https://ads.example.net/logo.png expect=allow

    """

    static func images(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".engine") }.sorted()
    }

    @Test func theSecondRunUsesTheImageTheFirstLeft() throws {
        let folder = try CommandRunner.makeFolder(["list.json": Self.list, "t.trace": Self.trace])
        let cache = folder.appendingPathComponent("cache")
        let arguments = ["simulate", "t.trace", "--content-rules", "list.json", "--verbose", "--cache-dir", cache.path]
        let first = try CommandRunner.run(arguments, in: folder)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let written = Self.images(in: cache)
        #expect(written.count == 1)
        let stamp = try FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(written[0]).path)[.size] as? Int
        let second = try CommandRunner.run(arguments, in: folder)
        #expect(second.stdout == first.stdout && second.status == 0)
        #expect(Self.images(in: cache) == written, "nothing new is written")
        #expect(try FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(written[0]).path)[.size] as? Int == stamp)
        // The rules' places are the list's as named: another name is another image.
        try FileManager.default.copyItem(at: folder.appendingPathComponent("list.json"), to: folder.appendingPathComponent("copy.json"))
        let copy = try CommandRunner.run(["simulate", "t.trace", "--content-rules", "copy.json", "--verbose", "--cache-dir", cache.path], in: folder)
        #expect(copy.stdout == first.stdout.replacingOccurrences(of: "list.json", with: "copy.json"))
        #expect(Self.images(in: cache).count == 2)
    }

    @Test func aDamagedImageIsRebuiltAndReplaced() throws {
        let folder = try CommandRunner.makeFolder(["list.json": Self.list, "t.trace": Self.trace])
        let cache = folder.appendingPathComponent("cache")
        let arguments = ["simulate", "t.trace", "--content-rules", "list.json", "--verbose", "--cache-dir", cache.path]
        let first = try CommandRunner.run(arguments, in: folder)
        let image = cache.appendingPathComponent(try #require(Self.images(in: cache).first))
        let good = try Data(contentsOf: image)
        let damages: [(String, (inout [UInt8]) -> Void)] = [
            ("a flipped byte", { $0[$0.count / 2] ^= 0xFF }),
            ("cut short", { $0.removeLast($0.count / 2) }),
            ("empty", { $0 = [] }),
            ("not an image", { $0 = Array(String(repeating: "garbage ", count: 40).utf8) }),
            ("another format version", { $0[8] = 99 }),
        ]
        for (label, damage) in damages {
            var bytes = [UInt8](good)
            damage(&bytes)
            try Data(bytes).write(to: image)
            let again = try CommandRunner.run(arguments, in: folder)
            #expect(again.status == 0 && again.stdout == first.stdout && again.stderr == first.stderr, "\(label): \(again.stderr)")
            #expect(try Data(contentsOf: image) == good, "\(label): the image is written again")
        }
    }

    @Test func noCacheWritesNothingAndAPolicyIsCachedToo() throws {
        let policy = """
        webpolicy: 1
        name: shop
        content-rules:
          - id: trackers
            action: block
            url-filter: tracker

        """
        let folder = try CommandRunner.makeFolder(["shop.yaml": policy, "t.trace": "policy: shop.yaml\n" + Self.trace.replacingOccurrences(of: "image https://ads.example.net/banner/1.png expect=block", with: "image https://ads.example.net/banner/1.png expect=allow")])
        let cache = folder.appendingPathComponent("cache")
        let none = try CommandRunner.run(["simulate", "t.trace", "--no-cache", "--cache-dir", cache.path], in: folder)
        #expect(none.status == 0, "\(none.stdout)\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cache.path))
        let first = try CommandRunner.run(["simulate", "t.trace", "--verbose", "--cache-dir", cache.path], in: folder)
        #expect(Self.images(in: cache).count == 1)
        let second = try CommandRunner.run(["simulate", "t.trace", "--verbose", "--cache-dir", cache.path], in: folder)
        #expect(second.stdout == first.stdout && second.status == 0)
        let explained = try CommandRunner.run(["explain", "https://x.example/tracker.js", "--type", "script", "--policy", "shop.yaml", "--cache-dir", cache.path], in: folder)
        #expect(explained.stdout.contains("'trackers' (shop.yaml:4): block, acts"), "\(explained.stdout)")
        #expect(Self.images(in: cache).count == 1, "explain finds the same image")
        // A changed rule is another image; the old one stays until the folder is full.
        try policy.replacingOccurrences(of: "url-filter: tracker", with: "url-filter: tracking").write(to: folder.appendingPathComponent("shop.yaml"), atomically: true, encoding: .utf8)
        _ = try CommandRunner.run(["simulate", "t.trace", "--cache-dir", cache.path], in: folder)
        #expect(Self.images(in: cache).count == 2)
    }

    /// A list WebKit refuses for a regex — in a kept rule's url-filter, in a condition, or in a
    /// rule WebKit drops — is refused with WebKit's error at its place, cache or none (the
    /// engine built before the error was known is not kept).
    @Test(arguments: [
        (#"{"trigger": {"url-filter": "(a|b)x"}, "action": {"type": "block"}}"#, "list.json:3:31: error: rule 2: the url-filter is refused"),
        (#"{"trigger": {"url-filter": "x", "if-top-url": ["(a|b)"]}, "action": {"type": "block"}}"#, "list.json:3:51: error: rule 2: the if-top-url is refused"),
        (#"{"trigger": {"url-filter": "(a|b)x"}, "action": {"type": "css-display-none", "selector": "a["}}"#, "list.json:3:31: error: rule 2: the url-filter is refused"),
    ])
    func aListRefusedForARegexIsRefusedWithWebKitsError(rule: String, expected: String) throws {
        let list = "[\n" + #"{"trigger": {"url-filter": "fine"}, "action": {"type": "block"}},"# + "\n" + rule + "\n]\n"
        let folder = try CommandRunner.makeFolder(["list.json": list, "t.trace": Self.trace])
        let cache = folder.appendingPathComponent("cache")
        for caching in [["--cache-dir", cache.path], ["--no-cache"]] {
            let result = try CommandRunner.run(["simulate", "t.trace", "--content-rules", "list.json", "--color", "never"] + caching, in: folder)
            #expect(result.status == 2, "\(caching): \(result.stdout)\(result.stderr)")
            #expect((result.stdout + result.stderr).contains(expected), "\(caching): \(result.stdout)\(result.stderr)")
        }
        #expect(Self.images(in: cache).isEmpty)
    }
}
