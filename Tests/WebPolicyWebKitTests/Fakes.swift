import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WebPolicyRuntime
@testable import WebPolicyWebKit

enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func policy(_ name: String) throws -> RuntimePolicy {
        try RuntimePolicy(compiledDirectory: root.appendingPathComponent("Tests/Fixtures/runtime/\(name)/compiled"))
    }

    /// The https-and-trackers policy with one more rule in its list: a new version of the
    /// same list (same name, another content hash).
    static func changedPolicy() throws -> RuntimePolicy {
        let folder = root.appendingPathComponent("Tests/Fixtures/runtime/https-and-trackers/compiled")
        var manifest = try String(contentsOf: folder.appendingPathComponent("https-and-trackers.manifest.json"), encoding: .utf8)
        let list = try String(contentsOf: folder.appendingPathComponent("https-and-trackers.content-rules.json"), encoding: .utf8)
        let changed = list.replacingOccurrences(of: "[\n", with: "[\n  {\"trigger\": {\"url-filter\": \"changed\"}, \"action\": {\"type\": \"block\"}},\n", options: [], range: list.startIndex..<list.index(list.startIndex, offsetBy: 2))
        let old = SHA256.hex(Array(list.utf8)), new = SHA256.hex(Array(changed.utf8))
        manifest = manifest.replacingOccurrences(of: old, with: new).replacingOccurrences(of: String(old.prefix(16)), with: String(new.prefix(16)))
        // One rule more; the sources keep pointing at the old stretches, which is fine here.
        return try RuntimePolicy(manifest: Data(manifest.utf8), contentRuleLists: [Data(changed.utf8)])
    }
}

/// A `WKContentRuleListStore` stand-in: identifiers to the JSON compiled under them.
actor FakeRuleListStore: RuleListStore {
    var lists: [String: String]
    var compiles: [String] = []
    var removals: [String] = []
    /// Compiles of these identifiers fail as WebKit's would.
    var failing: Set<String> = []

    init(lists: [String: String] = [:]) { self.lists = lists }

    func availableIdentifiers() async -> [String] { lists.keys.sorted() }
    func lookUp(identifier: String) async -> String? { lists[identifier].map { _ in identifier } }
    func compile(identifier: String, json: String) async throws -> String {
        compiles.append(identifier)
        if failing.contains(identifier) { throw FakeError(message: "Rule list compilation failed: Failed to parse the JSON String.") }
        lists[identifier] = json
        return identifier
    }
    func remove(identifier: String) async throws {
        removals.append(identifier)
        lists[identifier] = nil
    }
    func failCompiles(of identifiers: Set<String>) { failing = identifiers }
}

struct FakeError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

actor FakeContentController: RuleListTarget {
    var added: [String] = []
    func add(_ list: String) async { added.append(list) }
}

actor FakeCookieStore: CookieSetting {
    var cookies: [CookieToInstall] = []
    func setCookie(_ cookie: CookieToInstall) async {
        // A completion that fires later, as WKHTTPCookieStore's does.
        try? await Task.sleep(nanoseconds: 1_000_000)
        cookies.append(cookie)
    }
}

final class RecordingOpener: ExternalOpener, @unchecked Sendable {
    private let lock = NSLock()
    private var urls: [String] = []
    func open(_ url: String) { lock.lock(); urls.append(url); lock.unlock() }
    var opened: [String] { lock.lock(); defer { lock.unlock() }; return urls }
}

/// A `WKURLSchemeTask` stand-in that, like WebKit's, refuses every call once stopped.
final class FakeSchemeTask: SchemeTaskSink {
    var calls: [String] = []
    var stoppedByWebKit = false
    var callsAfterStop = 0

    private func record(_ call: String) {
        if stoppedByWebKit { callsAfterStop += 1 }
        calls.append(call)
    }

    func didReceive(_ response: URLResponse) { record("response \((response as? HTTPURLResponse)?.statusCode ?? 0)") }
    func didReceive(_ data: Data) { record("data \(data.count)") }
    func didFinish() { record("finish") }
    func didFailWithError(_ error: Error) { record("fail") }
}
