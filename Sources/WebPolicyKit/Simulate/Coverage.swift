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
    }

    public struct Item: Sendable {
        public var kind: Kind
        public var name: String
        public var location: SourceLocation
    }

    /// Every item of the policy, in policy order.
    public let items: [Item]
    private var exercised: Set<Int> = []

    public init(policy: Policy) {
        // Each section lists its own items; they are shown kind by kind, in `Kind`'s order
        // (a bridge's origins stay under their bridge).
        func rank(_ kind: Kind) -> Int { Kind.allCases.firstIndex(of: kind == .bridgeOrigin ? .bridge : kind)! }
        let items = Sections.all.flatMap { $0.coverageItems(of: policy) }.enumerated()
            .sorted { (rank($0.element.kind), $0.offset) < (rank($1.element.kind), $1.offset) }.map(\.element)
        let appBound = items.indices.filter { items[$0].kind == .appBoundDomain }
        appBoundItems = (appBound.first ?? 0)..<((appBound.last ?? -1) + 1)
        let bridgeIndices = items.indices.filter { items[$0].kind == .bridge }
        bridgeItems = zip(policy.bridges, bridgeIndices).map { bridge, item in (bridge.name.value, bridge.worldValue, item, item + 1) }
        self.items = items
        var index: [Key: Int] = [:]
        for (position, item) in items.enumerated() { index[Key(item.location)] = index[Key(item.location)] ?? position }
        byLocation = index
        cookieNames = Dictionary(items.enumerated().filter { $0.element.kind == .cookie }.map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        listFiles = Dictionary(items.enumerated().filter { $0.element.kind == .contentRuleList }.map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        newWindowsItem = policy.navigation?.newWindows.flatMap { index[Key($0.location)] }
    }

    private struct Key: Hashable {
        var path: String
        var line: Int
        var column: Int
        init(_ location: SourceLocation) { (path, line, column) = (location.path, location.start.line, location.start.column) }
    }

    private let byLocation: [Key: Int]
    /// The app-bound entries' items, in the manifest's order (a decision names one by index).
    private let appBoundItems: Range<Int>
    private let cookieNames: [String: Int]
    private let listFiles: [String: Int]
    /// `new-windows`, which a window opened in the same view exercises without deciding it.
    private let newWindowsItem: Int?
    /// Each bridge's name and world, its item, and where its origins' items start.
    private let bridgeItems: [(name: String, world: ContentWorldName, item: Int, origins: Int)]

    /// Marks what one request exercised.
    public mutating func add(_ result: RequestResult) {
        for origin in result.matchedRules {
            guard let location = origin.location else { continue }
            if let item = byLocation[Key(location)] { exercised.insert(item) } else if let list = listFiles[location.path] { exercised.insert(list) }
        }
        // The allowlist or scheme entry the gate decided by, from the decision's record.
        if result.decision.record.decidedAt == .schemeGate, let location = result.decision.decidedBy?.location, let item = byLocation[Key(location)] {
            exercised.insert(item)
        }
        if let location = result.decision.interception?.location, let item = byLocation[Key(location)] { exercised.insert(item) }
        if let location = result.decision.admittedBy, let item = byLocation[Key(location)] { exercised.insert(item) }
        if result.decision.replacesPage, result.entry.resourceType == .popup, let item = newWindowsItem { exercised.insert(item) }
        // `otherwise` or `new-windows`, when one of them decided a navigation.
        if result.decision.record.decidedAt == .navigation, result.decision.admittedBy == nil, let location = result.decision.decidedBy?.location,
           let item = byLocation[Key(location)] {
            exercised.insert(item)
        }
        if case .boundBy(let entry) = result.decision.appBound, appBoundItems.contains(appBoundItems.lowerBound + entry) { exercised.insert(appBoundItems.lowerBound + entry) }
        for name in result.cookies { if let item = cookieNames[name] { exercised.insert(item) } }
        if let message = result.entry.message {
            for bridge in bridgeItems where bridge.name == message.handler && bridge.world == message.world { exercised.insert(bridge.item) }
        }
        if let admission = result.decision.bridge, bridgeItems.indices.contains(admission.bridge) {
            exercised.insert(bridgeItems[admission.bridge].origins + admission.origin)
        }
    }

    public var unexercised: [Item] { items.enumerated().filter { !exercised.contains($0.offset) }.map(\.element) }
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
