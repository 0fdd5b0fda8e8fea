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
        var items: [Item] = []
        for rule in policy.contentRules { items.append(Item(kind: .contentRule, name: rule.id.map { "'\($0.value)'" } ?? rule.action.value.rawValue, location: rule.location)) }
        for list in policy.contentRuleLists { items.append(Item(kind: .contentRuleList, name: list.file.path, location: list.reference.location)) }
        for entry in policy.httpAllowlist { items.append(Item(kind: .httpAllowlist, name: entry.host.value, location: entry.location)) }
        for entry in policy.schemeAllowlist { items.append(Item(kind: .schemeAllowlist, name: entry.scheme.value, location: entry.location)) }
        for rule in policy.interception { items.append(Item(kind: .interception, name: rule.id.map { "'\($0.value)'" } ?? rule.scheme.value, location: rule.location)) }
        for cookie in policy.cookies { items.append(Item(kind: .cookie, name: cookie.name.value, location: cookie.location)) }
        for entry in policy.navigation?.pages ?? [] { items.append(Item(kind: .navigationPage, name: entry.host.value, location: entry.location)) }
        for entry in policy.navigation?.frames ?? [] { items.append(Item(kind: .navigationFrame, name: entry.host.value, location: entry.location)) }
        let firstAppBound = items.count
        for domain in policy.appBoundDomains?.domains?.value ?? [] { items.append(Item(kind: .appBoundDomain, name: domain.value, location: domain.location)) }
        appBoundItems = firstAppBound..<items.count
        var bridges: [(name: String, world: ContentWorldName, item: Int, origins: Int)] = []
        for bridge in policy.bridges {
            bridges.append((bridge.name.value, bridge.worldValue, items.count, items.count + 1))
            items.append(Item(kind: .bridge, name: "'\(bridge.name.value)'", location: bridge.location))
            for origin in bridge.origins?.value ?? [] { items.append(Item(kind: .bridgeOrigin, name: "\(bridge.name.value): \(origin.value)", location: origin.location)) }
        }
        bridgeItems = bridges
        self.items = items
        var index: [Key: Int] = [:]
        for (position, item) in items.enumerated() { index[Key(item.location)] = index[Key(item.location)] ?? position }
        byLocation = index
        cookieNames = Dictionary(items.enumerated().filter { $0.element.kind == .cookie }.map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        listFiles = Dictionary(items.enumerated().filter { $0.element.kind == .contentRuleList }.map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
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
    /// Each bridge's name and world, its item, and where its origins' items start.
    private let bridgeItems: [(name: String, world: ContentWorldName, item: Int, origins: Int)]

    /// Marks what one request exercised.
    public mutating func add(_ result: RequestResult) {
        for origin in result.matchedRules {
            guard let location = origin.location else { continue }
            if let item = byLocation[Key(location)] { exercised.insert(item) } else if let list = listFiles[location.path] { exercised.insert(list) }
        }
        switch result.why {
        case .allowlisted(_, let location), .handedToSystem(_, let location):
            if let location, let item = byLocation[Key(location)] { exercised.insert(item) }
        default: break
        }
        if let location = result.decision.interception?.location, let item = byLocation[Key(location)] { exercised.insert(item) }
        if let location = result.decision.admittedBy, let item = byLocation[Key(location)] { exercised.insert(item) }
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
