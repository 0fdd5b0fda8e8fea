/// Many url-filter automata searched together: "can this probe filter match the same URL as any
/// of the members?" with the probe determinised once and shared by every member.
///
/// The search is plain reachability in the product of the probe's DFA and each member's NFA:
/// a pair (probe state, member node) is visited at most once, whatever prefix reached it,
/// because what can follow depends only on the pair. Anchored members drop out at their first
/// mismatching character, so the work grows with the members that stay alive, not with the
/// product of everything.
public struct URLFilterAutomatonSet: Sendable {
    public enum Overlap: Sendable, Equatable {
        /// No member matches a URL the probe matches.
        case none
        /// This member (the smallest index among those that do) matches a URL the probe matches.
        case member(Int)
        /// The search exceeded its budget before deciding.
        case undecided
    }

    private let members: [URLFilterAutomaton]
    /// The global number of each member's node 0; node `acceptedState` of a member is its
    /// absorbing "has matched" state.
    private let offsets: [Int]
    private let nodeCount: Int

    public init(_ members: [URLFilterAutomaton]) {
        self.members = members
        var offsets: [Int] = []
        offsets.reserveCapacity(members.count)
        var total = 0
        for member in members {
            offsets.append(total)
            total += member.acceptedState + 1
        }
        self.offsets = offsets
        self.nodeCount = total
    }

    public var count: Int { members.count }

    /// Searches the members for which `include` holds, in index order. `budget` bounds the
    /// member transitions followed in all.
    public func firstOverlap(with probe: URLFilterAutomaton, include: (Int) -> Bool = { _ in true }, budget: Int = 200_000_000) -> Overlap {
        var search = ProductSearch(probe: probe, nodeCount: nodeCount, budget: budget)
        for index in members.indices where include(index) {
            switch search.reaches(members[index], offset: offsets[index]) {
            case true: return .member(index)
            case false: continue
            case nil: return .undecided
            }
        }
        return .none
    }
}

/// The probe's DFA, built lazily, and the product pairs already visited.
private struct ProductSearch {
    typealias Bits = URLFilterAutomaton.CharacterBits

    struct ProbeState {
        var accepted: Bool
        /// Where each character other than the end sentinel leads, grouped by target.
        var classes: [(characters: Bits, target: Int)]?
        /// Whether the probe has matched once the URL ends here.
        var acceptsAtEnd: Bool?
        /// One bit per global member node: the pairs visited with this probe state.
        var visited: [UInt64]
    }

    let probe: URLFilterAutomaton
    let nodeCount: Int
    var budget: Int
    var states: [ProbeState] = []
    var stateIDs: [[Int]: Int] = [:]
    var start = 0

    init(probe: URLFilterAutomaton, nodeCount: Int, budget: Int) {
        self.probe = probe
        self.nodeCount = nodeCount
        self.budget = budget
        start = state(for: probe.steps[probe.start])
    }

    /// The DFA state for a set of probe NFA nodes (already epsilon-closed).
    mutating func state(for nodes: [Int]) -> Int {
        let key = Array(Set(nodes)).sorted()
        if let id = stateIDs[key] { return id }
        states.append(ProbeState(accepted: key.contains(probe.acceptedState), visited: []))
        stateIDs[key] = states.count - 1
        nodesOfState.append(key)
        return states.count - 1
    }
    var nodesOfState: [[Int]] = []

    /// The probe's moves from `id` on ordinary characters, computed once per state.
    mutating func classes(of id: Int) -> [(characters: Bits, target: Int)] {
        if let known = states[id].classes { return known }
        let nodes = nodesOfState[id]
        var grouped: [[Int]: Bits] = [:]
        var order: [[Int]] = []
        for character in 1..<128 {
            let bit = character < 64 ? Bits(low: 1 << UInt64(character), high: 0) : Bits(low: 0, high: 1 << UInt64(character - 64))
            var targets: [Int] = []
            for node in nodes {
                if node == probe.acceptedState { targets.append(node); continue }
                for transition in probe.nodes[node].transitions where !transition.set.intersection(bit).isEmpty {
                    targets.append(contentsOf: probe.steps[transition.target])
                }
            }
            guard !targets.isEmpty else { continue }
            let key = Array(Set(targets)).sorted()
            if let bits = grouped[key] {
                grouped[key] = Bits(low: bits.low | bit.low, high: bits.high | bit.high)
            } else {
                grouped[key] = bit
                order.append(key)
            }
        }
        let result = order.map { (characters: grouped[$0]!, target: state(for: $0)) }
        states[id].classes = result
        return result
    }

    /// Whether the probe has matched after reading the end sentinel in state `id`.
    mutating func acceptsAtEnd(_ id: Int) -> Bool {
        if let known = states[id].acceptsAtEnd { return known }
        let accepts = nodesOfState[id].contains { node in
            node == probe.acceptedState
                || probe.nodes[node].transitions.contains { $0.set.containsSentinel && probe.steps[$0.target].contains(probe.acceptedState) }
        }
        states[id].acceptsAtEnd = accepts
        return accepts
    }

    /// Marks a pair visited; false when it already was.
    mutating func visit(_ state: Int, _ node: Int) -> Bool {
        if states[state].visited.isEmpty {
            states[state].visited = [UInt64](repeating: 0, count: (nodeCount + 63) / 64)
        }
        let word = node >> 6
        let mask = UInt64(1) << UInt64(node & 63)
        if states[state].visited[word] & mask != 0 { return false }
        states[state].visited[word] |= mask
        return true
    }

    /// Whether the probe and `member` both match some URL; nil when the budget runs out.
    mutating func reaches(_ member: URLFilterAutomaton, offset: Int) -> Bool? {
        let accepted = member.acceptedState
        var stack: [(state: Int, node: Int)] = []
        func push(_ state: Int, _ node: Int, into stack: inout [(state: Int, node: Int)], search: inout ProductSearch) -> Bool {
            guard search.visit(state, offset + node) else { return false }
            if node == accepted && search.states[state].accepted { return true }
            stack.append((state, node))
            return false
        }
        for node in member.steps[member.start] where push(start, node, into: &stack, search: &self) { return true }
        while let (state, node) = stack.popLast() {
            let moves = node == accepted ? [(set: Bits.all, target: accepted)] : member.nodes[node].transitions
            for (set, target) in moves {
                budget -= 1
                if budget < 0 { return nil }
                let targets = member.steps[target]
                if set.containsSentinel && targets.contains(accepted) && acceptsAtEnd(state) { return true }
                guard set.containsCharacters else { continue }
                for (characters, next) in classes(of: state) where !characters.intersection(set).isEmpty {
                    for targetNode in targets where push(next, targetNode, into: &stack, search: &self) { return true }
                }
            }
        }
        return false
    }
}
