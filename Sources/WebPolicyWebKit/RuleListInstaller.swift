import Foundation
import WebPolicyRuntime

/// Where compiled content-rule lists live: `WKContentRuleListStore` in an app
/// (`WebKit/ContentRuleListStore+WebKit.swift`), a fake in the tests.
public protocol RuleListStore: Sendable {
    associatedtype List: Sendable
    /// Every identifier the store holds (`getAvailableContentRuleListIdentifiers`).
    func availableIdentifiers() async -> [String]
    /// The compiled list, or nil when the store has none under `identifier`.
    func lookUp(identifier: String) async -> List?
    /// Compiles `json` and stores it under `identifier`; throws WebKit's error.
    func compile(identifier: String, json: String) async throws -> List
    func remove(identifier: String) async throws
}

/// What an install did, for the app's logs and metrics.
public struct RuleListInstallReport: Sendable {
    /// The identifiers of the lists to add to the web views, in the policy's order.
    public var identifiers: [String] = []
    /// Lists found compiled in the store (no compile needed).
    public var reused: [String] = []
    /// Lists compiled now, with the seconds WebKit took.
    public var compiled: [(identifier: String, seconds: Double)] = []
    /// Lists that failed to compile, with WebKit's error, and the older list kept in their
    /// place (nil when the store had none).
    public var failures: [(identifier: String, error: String, keptInstead: String?)] = []
    /// This policy's stale lists removed from the store.
    public var removed: [String] = []
}

/// Installs a policy's content-rule lists into a store the way DuckDuckGo's and Brave's apps
/// learned to (their content-blocking loaders): look the identifier up before compiling —
/// identifiers carry the list's SHA-256, so a hit is the very same rules — compile only what
/// is missing, keep the last good list of a name when a compile fails, and remove only this
/// policy's own stale identifiers, never another list the app stores.
public struct RuleListInstaller<Store: RuleListStore>: Sendable {
    public let store: Store
    /// Seconds since some fixed point, to time compiles (injectable for tests).
    public var now: @Sendable () -> Double = { Date().timeIntervalSinceReferenceDate }

    public init(store: Store) {
        self.store = store
    }

    /// The lists to add to the web views (in the policy's order) and what it took.
    public func install(_ policy: RuntimePolicy) async -> (lists: [Store.List], report: RuleListInstallReport) {
        var report = RuleListInstallReport()
        var lists: [Store.List] = []
        let available = await store.availableIdentifiers()
        var keep = Set<String>()
        for list in policy.contentRuleLists {
            if let found = await store.lookUp(identifier: list.identifier) {
                lists.append(found)
                report.reused.append(list.identifier)
                report.identifiers.append(list.identifier)
                keep.insert(list.identifier)
                continue
            }
            let start = now()
            do {
                let compiled = try await store.compile(identifier: list.identifier, json: list.json())
                report.compiled.append((list.identifier, now() - start))
                lists.append(compiled)
                report.identifiers.append(list.identifier)
                keep.insert(list.identifier)
            } catch {
                // Another version of the same list that the store still holds: normally exactly
                // one, the last good one, since every successful install removes the others.
                // (Hashes carry no order; with several, the first by name is as good as any.)
                let name = Self.listName(of: list.identifier)
                let previous = available.filter { $0 != list.identifier && Self.listName(of: $0) == name }.sorted().first
                var kept: String?
                if let previous, let old = await store.lookUp(identifier: previous) {
                    lists.append(old)
                    report.identifiers.append(previous)
                    keep.insert(previous)
                    kept = previous
                }
                report.failures.append((list.identifier, "\(error)", kept))
            }
        }
        let names = Set(policy.contentRuleLists.map { Self.listName(of: $0.identifier) })
        for identifier in available.sorted() where !keep.contains(identifier) {
            guard let name = Self.listName(of: identifier), names.contains(name) else { continue }
            do {
                try await store.remove(identifier: identifier)
                report.removed.append(identifier)
            } catch {
                // A list the store will not remove stays; it costs disk, not correctness.
            }
        }
        return (lists, report)
    }

    /// `app-2-0123456789abcdef` → `app-2`: the list's name without its content hash; nil for
    /// an identifier webpolicy did not make (never touched).
    public static func listName(of identifier: String) -> String? {
        guard let dash = identifier.lastIndex(of: "-") else { return nil }
        let hash = identifier[identifier.index(after: dash)...]
        guard hash.count == 16, hash.allSatisfy({ $0.isHexDigit && !$0.isUppercase }), dash > identifier.startIndex else { return nil }
        return String(identifier[..<dash])
    }
}
