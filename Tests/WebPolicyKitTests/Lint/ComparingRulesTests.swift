import Testing
import URLFilter
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// The rules that compare entries with each other look candidates up in indexes
/// (`TriggerShapeIndex`, `HostPatternIndex`, names by parent) so that a 100,000-rule list lints
/// in linear time. Each must report exactly what the all-pairs comparison it replaced reports:
/// on seeded random policies over a small vocabulary (so that pairs collide often), the rule's
/// findings equal those of the plain quadratic reference written out here.
@Suite("Rules that compare entries")
struct ComparingRulesTests {
    static let seeds: [UInt64] = Array(1...60)

    // MARK: Content rules

    static let filters = ["'.*'", "'^.*$'", "ads", "track", "'^https?://x\\\\.example/'"]
    static let hosts = ["x.example", "ads.example", "'*.cdn.example'"]
    static let types = ["image", "script", "document", "top-document", "font"]
    static let domains = ["a.example", "b.example"]
    static let actions = ["block", "block", "ignore-previous-rules", "make-https", "css-display-none", "block-cookies"]

    static func contentRulePolicy(seed: UInt64) -> String {
        var random = SplitMix64(state: seed)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        var text = "webpolicy: 1\nname: random\ntarget: { ios: \"17.0\" }\ncontent-rules:\n"
        for _ in 0..<(20 + Int(random.next() % 40)) {
            let action = pick(actions)
            text += "  - action: \(action)\n"
            if chance(25) {
                text += "    hosts: [\(pick(hosts))\(chance(30) ? ", \(pick(hosts))" : "")]\n"
            } else {
                text += "    url-filter: \(pick(filters))\n"
            }
            if action == "css-display-none" { text += "    selector: '\(pick([".a", ".b"]))'\n" }
            if chance(40) { text += "    resource-type: [\(pick(types))\(chance(40) ? ", \(pick(types))" : "")]\n" }
            if chance(25) { text += "    load-type: [\(pick(["first-party", "third-party"]))]\n" }
            if chance(15) { text += "    url-filter-is-case-sensitive: true\n" }
            if chance(25) { text += "    \(pick(["if-domain", "unless-domain"])): [\(pick(domains))]\n" }
        }
        return text
    }

    /// The findings of `rule` on a random policy, as (line, the line a note points at).
    static func findings(_ rule: any LintRule.Type, _ text: String) -> [[Int]] {
        let report = Linter(rules: [rule]).lint(text: text, path: "random.yaml")
        #expect(report.diagnostics.allSatisfy { $0.ruleID == rule.description.id }, "\(report.diagnostics.map(\.message))")
        return report.diagnostics.map { [$0.location.range.start.line] + $0.notes.compactMap { $0.location?.range.start.line } }
    }

    static func policy(_ text: String) throws -> (Policy, [TriggerShape]) {
        let (report, policy) = Linter(rules: []).lintLoading(text: text, path: "random.yaml")
        #expect(report.diagnostics.isEmpty, "the generated policy does not load cleanly: \(report.diagnostics.map(\.message))\n\(text)")
        let loaded = try #require(policy)
        return (loaded, loaded.contentRules.map { TriggerShape($0.trigger) })
    }

    @Test(arguments: seeds)
    func deadRulesAsAllPairs(seed: UInt64) throws {
        let text = Self.contentRulePolicy(seed: seed)
        let (policy, shapes) = try Self.policy(text)
        let rules = policy.contentRules
        var expected: [[Int]] = []
        var seen: [(key: (TriggerShape, ContentActionType, String, String), line: Int)] = []
        for (index, rule) in rules.enumerated() {
            let line = rule.location.range.start.line
            if let canceller = rules.indices.reversed().first(where: { $0 > index && rules[$0].action.value == .ignorePreviousRules && shapes[$0].covers(shapes[index]) }) {
                expected.append([line, rules[canceller].location.range.start.line])
                continue
            }
            let key = (shapes[index], rule.action.value, rule.selector?.value ?? "", rule.notification?.value ?? "")
            if let earlier = seen.first(where: { $0.key == key }) {
                expected.append([line, earlier.line])
            } else {
                seen.append((key, line))
            }
        }
        #expect(Self.findings(ContentRuleDeadRule.self, text).sorted { $0.lexicographicallyPrecedes($1) } == expected.sorted { $0.lexicographicallyPrecedes($1) }, "seed \(seed)")
    }

    @Test(arguments: seeds)
    func blockAndUpgradeAsAllPairs(seed: UInt64) throws {
        let text = Self.contentRulePolicy(seed: seed)
            .replacingOccurrences(of: "action: ignore-previous-rules", with: (seed % 3 == 0 ? "action: ignore-previous-rules" : "action: make-https"))
        let (policy, shapes) = try Self.policy(text)
        var blocks: [Int] = []
        var upgrades: [Int] = []
        for (index, rule) in policy.contentRules.enumerated() {
            switch rule.action.value {
            case .block: blocks.append(index)
            case .makeHTTPS: upgrades.append(index)
            case .ignorePreviousRules, .ignoreFollowingRules:
                blocks.removeAll()
                upgrades.removeAll()
            default: continue
            }
        }
        let lines = policy.contentRules.map(\.location.range.start.line)
        let expected = upgrades.compactMap { upgrade in
            blocks.first { shapes[$0].covers(shapes[upgrade]) }.map { [lines[upgrade], lines[$0]] }
        }
        #expect(Self.findings(ContentRuleBlockAndUpgradeRule.self, text).sorted { $0.lexicographicallyPrecedes($1) } == expected.sorted { $0.lexicographicallyPrecedes($1) }, "seed \(seed)")
    }

    // MARK: Host names

    static let names = ["example.com", "a.example.com", "b.a.example.com", "com", "other.org", "a.other.org", "example.com."]

    static func hostPattern(_ random: inout SplitMix64, wildcards: Bool = true) -> String {
        let name = names[Int(random.next() % UInt64(names.count))]
        return wildcards && random.next() % 3 == 0 ? "*." + name : name
    }

    @Test(arguments: seeds)
    func duplicateHostsAsAllPairs(seed: UInt64) throws {
        var random = SplitMix64(state: seed)
        var text = "webpolicy: 1\nname: random\nhttp-allowlist:\n"
        for _ in 0..<(3 + Int(random.next() % 12)) {
            text += "  - host: '\(Self.hostPattern(&random))'\n    reason: test\n"
            if random.next() % 3 == 0 { text += "    include-subdomains: true\n" }
        }
        let (policy, _) = try Self.policy(text)
        let entries = policy.httpAllowlist
        let scopes = entries.map { entry -> (host: String, subdomains: Bool) in
            let host = entry.host.value.lowercased()
            return host.hasPrefix("*.") ? (String(host.dropFirst(2)), true) : (host, entry.includeSubdomains?.value ?? false)
        }
        var expected: [[Int]] = []
        for index in entries.indices {
            let mine = scopes[index]
            let cover = scopes.indices.first { other in
                guard other != index else { return false }
                let theirs = scopes[other]
                if theirs == mine { return other < index }
                return theirs.subdomains && HostScope.isWithin(mine.host, theirs.host) && (mine.host != theirs.host || !mine.subdomains)
            }
            if let cover { expected.append([entries[index].host.location.range.start.line, entries[cover].host.location.range.start.line]) }
        }
        #expect(Self.findings(HostDuplicateRule.self, text) == expected, "seed \(seed)\n\(text)")
    }

    @Test(arguments: seeds)
    func hostPatternIndexAsAllPairs(seed: UInt64) {
        var random = SplitMix64(state: seed)
        let patterns = (0..<(1 + Int(random.next() % 15))).map { line in
            LocatedString(Self.hostPattern(&random), at: SourceLocation(path: "p", range: SourceRange(at: SourcePosition(line: line + 1, column: 1))))
        }
        let index = HostPatternIndex(patterns)
        for query in Self.names + Self.names.map({ "*." + $0 }) {
            let scope = HostScope(pattern: query)
            let expected = patterns.first { HostScope(pattern: $0.value).intersects(scope) }
            #expect(index.firstOverlapping(scope)?.value == expected?.value, "\(query) in \(patterns.map(\.value))")
            #expect(index.firstOverlapping(scope)?.location == expected?.location)
        }
    }
}
