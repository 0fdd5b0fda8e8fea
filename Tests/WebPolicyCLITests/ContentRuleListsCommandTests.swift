import Foundation
import Testing

/// `content-rule-lists:`: lists a policy does not own, checked, compiled and simulated each as
/// its own list.
@Suite("content-rule-lists (the binary)")
struct ContentRuleListsCommandTests {
    static let policy = """
    webpolicy: 1
    name: shop
    target: { ios: "16.0" }
    content-rules:
      - action: block
        url-filter: 'ads'
    content-rule-lists:
      - path: vendor/trackers.json
        id: vendor trackers

    """
    static let vendor = #"[{"trigger": {"url-filter": "ads"}, "action": {"type": "ignore-previous-rules"}}, {"trigger": {"url-filter": "pixel"}, "action": {"type": "block"}}]"#

    @Test func aReferencedListIsCompiledAsItsOwnListWithAHashedIdentifier() throws {
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.policy, "vendor/trackers.json": Self.vendor])
        let result = try CommandRunner.run(["compile", "shop.yaml", "--output", "out"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let copied = try String(contentsOf: folder.appendingPathComponent("out/shop.content-rules.vendor-trackers.json"), encoding: .utf8)
        #expect(copied == Self.vendor, "copied as it is")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("out/shop.manifest.json"))) as? [String: Any])
        let lists = try #require(manifest["contentRuleLists"] as? [[String: Any]])
        #expect(lists.map { $0["file"] as? String } == ["shop.content-rules.json", "shop.content-rules.vendor-trackers.json"])
        #expect((lists[1]["identifier"] as? String)?.hasPrefix("vendor-trackers-") == true)
        #expect(lists[1]["ruleCount"] as? Int == 2)
    }

    @Test func eachListIsEvaluatedOnItsOwn() throws {
        let trace = "policy: shop.yaml\nscript https://site.example/ads.js expect=block\nimage https://site.example/pixel.gif expect=block\nimage https://site.example/logo.png expect=allow\n"
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.policy, "vendor/trackers.json": Self.vendor, "shop.trace": trace])
        let result = try CommandRunner.run(["simulate", "shop.trace", "--verbose"], in: folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // The vendor list's ignore-previous-rules does not reach the policy's own block.
        #expect(result.stdout.contains("content rule #1 (shop.yaml:5) blocks it"), "\(result.stdout)")
        #expect(result.stdout.contains("content rule #2 (vendor/trackers.json:1) blocks it"), "\(result.stdout)")
    }

    @Test func aListWebKitWouldRefuseIsAnErrorAtItsOwnLine() throws {
        let broken = "[\n  {\"trigger\": {\"url-filter\": \"a(\"}, \"action\": {\"type\": \"block\"}}\n]\n"
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.policy, "vendor/trackers.json": broken])
        let result = try CommandRunner.run(["lint", "shop.yaml"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains("vendor/trackers.json:2:32: error: rule 1: the url-filter is refused by WebKit's url-filter parser"), "\(result.stdout)")
        #expect(result.stdout.contains("note: shop.yaml:8:11: the list of this content-rule-lists entry"), "\(result.stdout)")
        let compile = try CommandRunner.run(["compile", "shop.yaml", "--output", "out"], in: folder)
        #expect(compile.status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func aListOverWebKitsRuleLimitIsAnErrorNamingIt() throws {
        // iOS 14's WebKit takes 50,000 rules a list.
        let policy = Self.policy.replacingOccurrences(of: "target: { ios: \"16.0\" }", with: "target: { ios: \"14.0\" }")
        let rule = #"{"trigger":{"url-filter":"a"},"action":{"type":"block"}}"#
        let list = "[" + Array(repeating: rule, count: 50_001).joined(separator: ",\n") + "]\n"
        let folder = try CommandRunner.makeFolder(["shop.yaml": policy, "vendor/trackers.json": list])
        let result = try CommandRunner.run(["lint", "shop.yaml"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("shop.yaml:8:11: error: the content-rule list vendor/trackers.json has 50001 rules; WebKit on iOS 14.0 refuses a list of more than 50000 [compile-list-size]"), "\(result.stdout)")
        let compile = try CommandRunner.run(["compile", "shop.yaml", "--output", "out"], in: folder)
        #expect(compile.status == 1)
        #expect(compile.stderr.components(separatedBy: "has 50001 rules").count == 2, "reported once: \(compile.stderr)")
    }

    @Test func aMissingListIsAnErrorAtItsEntry() throws {
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.policy])
        let result = try CommandRunner.run(["lint", "shop.yaml"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("shop.yaml:8:11: error: no such file: vendor/trackers.json"), "\(result.stdout)")
    }
}
