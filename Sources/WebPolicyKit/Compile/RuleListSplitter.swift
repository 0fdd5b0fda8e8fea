import URLFilter
import WebPolicyRuntime

/// How a policy's lowered rules are cut into WebKit rule lists.
public struct RuleListPlan: Sendable {
    public var lists: [[LoweredRule]]
    /// The most rules WebKit accepts in one list for the target.
    public var limit: Int
    /// Ignore rules that the cut separates from rules they could affect.
    public var conflicts: [SplitConflict]
}

/// An `ignore-previous-rules` (or `ignore-following-rules`) rule that would act on another
/// rule in one list but cannot once the rules are in different lists: WebKit evaluates lists
/// independently, and the ignore actions never cross them (WebKit test `MultipleExtensions`).
public struct SplitConflict: Sendable {
    public var ignoreRule: LoweredRule
    public var affectedRule: LoweredRule
    /// True when the check ran out of its budget before proving the two rules disjoint.
    public var isUnproven: Bool
}

public enum RuleListSplitter {
    /// WebKit's `maxRuleCount`: 150,000 from iOS 15 (WebKit bug 219626), 50,000 before.
    public static func maximumRules(for target: OSVersion) -> Int {
        target >= OSVersion(15) ? 150_000 : 50_000
    }

    /// Member transitions the overlap check of one ignore rule may follow before the pair it
    /// could not decide is reported as a conflict rather than proven safe.
    static let overlapBudget = 50_000_000

    /// `checkConflicts: false` skips the overlap checks when lint has already made them.
    public static func plan(_ rules: [LoweredRule], target: OSVersion, checkConflicts: Bool = true) -> RuleListPlan {
        let limit = maximumRules(for: target)
        guard rules.count > limit else {
            return RuleListPlan(lists: rules.isEmpty ? [] : [rules], limit: limit, conflicts: [])
        }
        let lists = stride(from: 0, to: rules.count, by: limit).map { Array(rules[$0..<min($0 + limit, rules.count)]) }
        guard checkConflicts else { return RuleListPlan(lists: lists, limit: limit, conflicts: []) }
        var checks: [(rule: Int, others: Range<Int>)] = []
        for index in rules.indices {
            let listStart = index / limit * limit
            switch rules[index].action {
            case .ignorePreviousRules where listStart > 0:
                checks.append((index, 0..<listStart))
            case .ignoreFollowingRules where listStart + limit < rules.count:
                checks.append((index, (listStart + limit)..<rules.count))
            default:
                continue
            }
        }
        guard !checks.isEmpty else { return RuleListPlan(lists: lists, limit: limit, conflicts: []) }
        let checker = OverlapChecker(rules)
        let conflicts = checks.compactMap { checker.firstOverlap(of: $0.rule, among: $0.others, budget: overlapBudget) }
        return RuleListPlan(lists: lists, limit: limit, conflicts: conflicts)
    }
}

/// Decides whether an ignore rule can act on the same load as another rule: their flags must
/// intersect and their url-filters must be able to match one URL.
private struct OverlapChecker {
    enum Filter {
        case automaton(URLFilterAutomaton, member: Int)
        case everything
        case invalid
    }

    let rules: [LoweredRule]
    let filters: [Filter]
    /// Every rule with an automaton, searched together.
    let set: URLFilterAutomatonSet
    let ruleOfMember: [Int]

    init(_ rules: [LoweredRule]) {
        self.rules = rules
        // Parsing and building are independent per rule: spread them over the cores.
        let built: [URLFilterAutomaton?] = rules.parallelMap { rule in
            switch URLFilterParser.parse(rule.urlFilter, caseSensitive: rule.urlFilterIsCaseSensitive) {
            case .filter(let parsed): return URLFilterAutomaton(parsed)
            case .matchesEverything, .rejected: return nil
            }
        }
        var automata: [URLFilterAutomaton] = []
        var ruleOfMember: [Int] = []
        var filters: [Filter] = []
        filters.reserveCapacity(rules.count)
        for (index, automaton) in built.enumerated() {
            if let automaton {
                filters.append(.automaton(automaton, member: automata.count))
                automata.append(automaton)
                ruleOfMember.append(index)
            } else if case .matchesEverything = URLFilterParser.parse(rules[index].urlFilter, caseSensitive: rules[index].urlFilterIsCaseSensitive) {
                filters.append(.everything)
            } else {
                filters.append(.invalid)  // lint reports it; nothing is compiled
            }
        }
        self.filters = filters
        self.set = URLFilterAutomatonSet(automata)
        self.ruleOfMember = ruleOfMember
    }

    func firstOverlap(of ignoreIndex: Int, among others: Range<Int>, budget: Int) -> SplitConflict? {
        let ignoreRule = rules[ignoreIndex]
        func candidate(_ index: Int) -> Bool {
            if case .invalid = filters[index] { return false }
            return others.contains(index) && flagsIntersect(ignoreRule, rules[index])
        }
        // A filter that matches everything meets every other filter.
        let firstUniversal = others.first { index in
            if case .everything = filters[index] { return candidate(index) }
            return false
        }
        var found: (index: Int, unproven: Bool)?
        switch filters[ignoreIndex] {
        case .invalid:
            return nil
        case .everything:
            if let index = others.first(where: candidate) { found = (index, false) }
        case .automaton(let probe, _):
            switch set.firstOverlap(with: probe, include: { candidate(ruleOfMember[$0]) }, budget: budget) {
            case .none: break
            case .member(let member): found = (ruleOfMember[member], false)
            case .undecided: found = (others.first(where: candidate) ?? others.lowerBound, true)
            }
        }
        if let universal = firstUniversal, found.map({ $0.unproven || universal < $0.index }) ?? true {
            found = (universal, false)
        }
        return found.map { SplitConflict(ignoreRule: ignoreRule, affectedRule: rules[$0.index], isUnproven: $0.unproven) }
    }

    private func flagsIntersect(_ lhs: LoweredRule, _ rhs: LoweredRule) -> Bool {
        // An absent or empty flag list matches everything (WebKit `interpretTestFlagsAndAppendAction`).
        func meet<T: Hashable>(_ a: [T]?, _ b: [T]?, _ expand: (T) -> [T] = { [$0] }) -> Bool {
            guard let a, let b, !a.isEmpty, !b.isEmpty else { return true }
            return !Set(a.flatMap(expand)).isDisjoint(with: b.flatMap(expand))
        }
        if let left = lhs.requestMethod, let right = rhs.requestMethod, left != right { return false }
        return meet(lhs.resourceTypes, rhs.resourceTypes, ResourceType.expanded)
            && meet(lhs.loadTypes, rhs.loadTypes)
            && meet(lhs.loadContexts, rhs.loadContexts)
    }
}
