import Foundation
import WebPolicyRuntime

/// What of a policy the simulated requests exercised (`simulate --coverage`): each content
/// rule some request matched, each allowlist and scheme entry that decided a request, each
/// interception rule that served one and each cookie sent; each bridge some message was posted
/// to, and each bridge origin that admitted one. What no request touched is listed
/// with its location: a rule no trace exercises is a rule no test protects.
public struct Coverage: Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case contentRule = "content rule"
        case contentRuleList = "content-rule list"
        case httpAllowlist = "http-allowlist entry"
        case schemeAllowlist = "scheme-allowlist entry"
        case interception = "interception rule"
        case cookie = "cookie"
        case navigationPage = "navigation.pages entry"
        case navigationFrame = "navigation.frames entry"
        /// `navigation.otherwise` and `new-windows`, when the policy sets them: each decides
        /// the navigations no entry admits.
        case navigationSetting = "navigation setting"
        case appBoundDomain = "app-bound domain"
        case bridge = "bridge"
        case bridgeOrigin = "bridge origin"
        case runtimeHost = "runtime-hosts role"
        /// A capability `webview.permissions` names: exercised by a request it decides.
        case permission = "webview permission"
    }

    public struct Item: Sendable {
        public var kind: Kind
        public var name: String
        public var location: SourceLocation
    }

    /// Every item of the policy, in policy order.
    public let items: [Item]
    private var marks: Marks

    public init(policy: Policy) {
        // Each section lists its own items; they are shown kind by kind, in `Kind`'s order
        // (a bridge's origins stay under their bridge).
        func rank(_ kind: Kind) -> Int { Kind.allCases.firstIndex(of: kind == .bridgeOrigin ? .bridge : kind)! }
        let items = Sections.all.flatMap { $0.coverageItems(of: policy) }.enumerated()
            .sorted { (rank($0.element.kind), $0.offset) < (rank($1.element.kind), $1.offset) }.map(\.element)
        self.items = items
        marks = Marks(items: items, policy: policy)
    }

    /// Marks what one request exercised: each section marks what it decided (its
    /// `markCoverage`), beside its items.
    public mutating func add(_ result: RequestResult) {
        for section in Sections.all { section.markCoverage(of: result, in: &marks) }
    }

    /// The items by where they are written or what they name, and those marked so far: what a
    /// section's marking reads and writes.
    struct Marks: Sendable {
        private struct Key: Hashable {
            var path: String
            var line: Int
            var column: Int
            init(_ location: SourceLocation) { (path, line, column) = (location.path, location.start.line, location.start.column) }
        }

        private let items: [Item]
        private let byLocation: [Key: Int]
        private let byName: [Kind: [String: Int]]
        /// The app-bound entries' items, in the manifest's order (a decision names one by index).
        private let appBoundItems: Range<Int>
        /// Each bridge's name and world, its item, and where its origins' items start.
        let bridges: [(name: String, world: ContentWorldName, item: Int, origins: Int)]
        private(set) var exercised: Set<Int> = []

        init(items: [Item], policy: Policy) {
            self.items = items
            var index: [Key: Int] = [:]
            for (position, item) in items.enumerated() { index[Key(item.location)] = index[Key(item.location)] ?? position }
            byLocation = index
            var names: [Kind: [String: Int]] = [:]
            for (position, item) in items.enumerated() where names[item.kind]?[item.name] == nil { names[item.kind, default: [:]][item.name] = position }
            byName = names
            let appBound = items.indices.filter { items[$0].kind == .appBoundDomain }
            appBoundItems = (appBound.first ?? 0)..<((appBound.last ?? -1) + 1)
            let bridgeIndices = items.indices.filter { items[$0].kind == .bridge }
            bridges = zip(policy.bridges, bridgeIndices).map { bridge, item in (bridge.name.value, bridge.worldValue, item, item + 1) }
        }

        /// The item written at `location`, of any kind.
        func item(at location: SourceLocation?) -> Int? { location.flatMap { byLocation[Key($0)] } }

        /// Marks the item written at `location`, when it is one of `kinds`.
        mutating func mark(at location: SourceLocation?, _ kinds: Kind...) {
            if let item = item(at: location), kinds.contains(items[item].kind) { exercised.insert(item) }
        }

        /// Marks the item of `kind` named `name` (a cookie, a list's file).
        mutating func mark(named name: String, _ kind: Kind) {
            if let item = byName[kind]?[name] { exercised.insert(item) }
        }

        /// Marks the `entry`th app-bound domain.
        mutating func markAppBound(_ entry: Int) {
            if appBoundItems.contains(appBoundItems.lowerBound + entry) { exercised.insert(appBoundItems.lowerBound + entry) }
        }

        mutating func mark(item: Int) { exercised.insert(item) }

        /// The first item of `kind` that `test` accepts.
        func first(_ kind: Kind, where test: (Item) -> Bool) -> Int? { items.indices.first { items[$0].kind == kind && test(items[$0]) } }
    }

    public var unexercised: [Item] { items.enumerated().filter { !marks.exercised.contains($0.offset) }.map(\.element) }
    /// Percent of the items exercised; 100 for a policy with none.
    public var percent: Double { items.isEmpty ? 100 : Double(items.count - unexercised.count) / Double(items.count) * 100 }

    /// `coverage: 92.3% of 13 (policy shop.yaml)`, then each item no request exercised.
    public func human(policy path: String) -> String {
        var output = String(format: "coverage of %@: %.1f%% of %d (rules, entries, lists and cookies)\n", path, percent, items.count)
        for item in unexercised { output += "  not exercised: \(item.kind.rawValue) \(item.name) (\(item.location.path):\(item.location.start.line))\n" }
        return output
    }

    public func json(policy path: String) -> JSONValue {
        .object([
            ("coverage", .string(path)),
            ("percent", .string(String(format: "%.1f", percent))),
            ("items", .int(items.count)),
            ("unexercised", .array(unexercised.map { item in
                .object([("kind", .string(item.kind.rawValue)), ("name", .string(item.name)), ("file", .string(item.location.path)), ("line", .int(item.location.start.line))])
            })),
        ])
    }
}
