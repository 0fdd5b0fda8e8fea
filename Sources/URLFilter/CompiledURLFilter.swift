/// One url-filter ready to run on URLs: a DFA over byte classes when the filter is small
/// enough (nearly all are), so a step is one table lookup and a match is linear in the URL's
/// length — no backtracking. WebKit runs a DFA too; this is the same language, checked by a
/// property test against a regex engine.
///
/// WebKit matches `URL + "\0"` and reports a rule as soon as its DFA reaches a final state, so
/// a filter matches when it accepts some prefix of the URL followed by the sentinel.
///
/// A class, immutable once built: a matcher holds tens of thousands and runs several per URL,
/// and should not copy their tables to do so.
public final class CompiledURLFilter: Sendable {
    /// Byte classes: bytes no set of the filter tells apart share a class.
    private let classOf: [UInt8]
    private let classCount: Int
    /// `transitions[state * classCount + class]`; state 0 is dead, state 1 has matched.
    private let transitions: [UInt16]
    private let startState: Int
    /// Filters whose DFA would be too large run their NFA instead.
    private let automaton: URLFilterAutomaton?

    static let dead = 0, matched = 1
    /// More DFA states than this and the filter keeps its NFA: a DFA can be exponential.
    static let stateLimit = 1024

    public init(_ filter: ParsedURLFilter) {
        let automaton = URLFilterAutomaton(filter)
        if let dfa = Self.determinize(automaton) {
            (classOf, classCount, transitions, startState) = dfa
            self.automaton = nil
        } else {
            (classOf, classCount, transitions, startState) = ([], 0, [], 0)
            self.automaton = automaton
        }
    }

    /// Subset construction over the NFA's epsilon-closed steps, with states as bit sets of
    /// NFA nodes; nil when the NFA has more than 64 nodes or the DFA would pass `stateLimit`.
    private static func determinize(_ automaton: URLFilterAutomaton) -> (classOf: [UInt8], classCount: Int, transitions: [UInt16], start: Int)? {
        let accepted = automaton.acceptedState
        guard accepted < 64 else { return nil }
        func mask(_ nodes: [Int]) -> UInt64 { nodes.reduce(0) { $0 | (1 << UInt64($1)) } }
        let acceptedBit: UInt64 = 1 << UInt64(accepted)
        // The distinct character sets of the NFA's moves; a byte's class is which sets hold it.
        var sets: [URLFilterAutomaton.CharacterBits] = []
        for node in automaton.nodes { for transition in node.transitions where !sets.contains(transition.set) { sets.append(transition.set) } }
        guard sets.count <= 64 else { return nil }
        var classOf = [UInt8](repeating: 0, count: 128)
        // Each class's signature, searched in order: a filter has a handful of classes, and
        // hashing 128 signatures into a dictionary for each of a real list's thousands of
        // automata was 1.6 % of building its engine.
        var signatures: [UInt64] = []
        var representatives: [UInt8] = []
        for byte in 0..<128 {
            let bit = URLFilterAutomaton.CharacterBits.single(UInt8(byte))
            var signature: UInt64 = 0
            for (index, set) in sets.enumerated() where !set.intersection(bit).isEmpty { signature |= 1 << UInt64(index) }
            if let id = signatures.firstIndex(of: signature) {
                classOf[byte] = UInt8(id)
            } else {
                classOf[byte] = UInt8(representatives.count)
                signatures.append(signature)
                representatives.append(UInt8(byte))
            }
        }
        let classCount = representatives.count
        // Per NFA node and class: the closed targets of its moves on that class, as a mask.
        var moves = [UInt64](repeating: 0, count: accepted * classCount)
        for node in 0..<accepted {
            for transition in automaton.nodes[node].transitions {
                let targets = mask(automaton.steps[transition.target])
                for (index, byte) in representatives.enumerated() where !transition.set.intersection(.single(byte)).isEmpty {
                    moves[node * classCount + index] |= targets
                }
            }
        }
        // A state's id is its position in `states`, found by a linear search while there are
        // few (nearly every filter's DFA: hashing each lookup was 2.8 % of building a real
        // list's engine), and through `ids` once there are more.
        var states: [UInt64] = [0, acceptedBit]
        var ids: [UInt64: Int] = [:]
        let linearStates = 32
        var transitions = [UInt16](repeating: UInt16(dead), count: 2 * classCount)
        for index in 0..<classCount { transitions[matched * classCount + index] = UInt16(matched) }
        func id(of set: UInt64) -> Int? {
            let set = set & acceptedBit != 0 ? acceptedBit : set
            if states.count <= linearStates {
                if let known = states.firstIndex(of: set) { return known }
            } else if let known = ids[set] {
                return known
            }
            guard states.count < stateLimit else { return nil }
            states.append(set)
            if states.count > linearStates {
                if ids.isEmpty { for (position, state) in states.enumerated() { ids[state] = position } } else { ids[set] = states.count - 1 }
            }
            transitions += [UInt16](repeating: UInt16(dead), count: classCount)
            return states.count - 1
        }
        guard let start = id(of: mask(automaton.steps[automaton.start])) else { return nil }
        var next = 2
        while next < states.count {
            for index in 0..<classCount {
                var targets: UInt64 = 0
                var remaining = states[next]
                while remaining != 0 {
                    let node = remaining.trailingZeroBitCount
                    remaining &= remaining - 1
                    targets |= moves[node * classCount + index]
                }
                guard let target = id(of: targets) else { return nil }
                transitions[next * classCount + index] = UInt16(target)
            }
            next += 1
        }
        return (classOf, classCount, transitions, start)
    }

    /// The DFA's tables, or the NFA of a filter whose DFA would be too large: what an engine
    /// image keeps of the filter (`FilterAutomata`).
    enum Tables {
        case dfa(classOf: [UInt8], classCount: Int, transitions: [UInt16], start: Int)
        case nfa(URLFilterAutomaton)
    }

    var tables: Tables {
        if let automaton { return .nfa(automaton) }
        return .dfa(classOf: classOf, classCount: classCount, transitions: transitions, start: startState)
    }

    /// Whether the filter matches `url` (its bytes; WebKit's canonical URLs are ASCII).
    package func matches(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        if let automaton { return Self.runNFA(automaton, url) }
        return transitions.withUnsafeBufferPointer { table in
            classOf.withUnsafeBufferPointer { classes in Self.runDFA(start: startState, classCount: classCount, table: table, classes: classes, url) }
        }
    }

    /// A DFA's run over `url` then WebKit's sentinel 0, to the first final state: the step of
    /// this class and of the engine image's automata (`FilterAutomata`), whatever the width of
    /// the transitions.
    @inline(__always)
    static func runDFA<State: FixedWidthInteger>(start: Int, classCount: Int, table: UnsafeBufferPointer<State>, classes: UnsafeBufferPointer<UInt8>,
                                                 _ url: UnsafeBufferPointer<UInt8>) -> Bool {
        var state = start
        if state == matched { return true }
        for index in 0...url.count {
            // The sentinel 0 ends the URL; a byte beyond ASCII matches no set.
            let byte = index < url.count ? url[index] : 0
            guard byte < 128 else { return false }
            state = Int(table[state &* classCount &+ Int(classes[Int(byte)])])
            if state == matched { return true }
            if state == dead { return false }
        }
        return false
    }

    public func matches(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { matches($0) }
    }

    private static func runNFA(_ automaton: URLFilterAutomaton, _ url: UnsafeBufferPointer<UInt8>) -> Bool {
        var active = Set(automaton.steps[automaton.start])
        if active.contains(automaton.acceptedState) { return true }
        for index in 0...url.count {
            let byte = index < url.count ? url[index] : 0
            guard byte < 128 else { return false }
            let bit = URLFilterAutomaton.CharacterBits.single(byte)
            var next = Set<Int>()
            for state in active where state != automaton.acceptedState {
                for transition in automaton.nodes[state].transitions where !transition.set.intersection(bit).isEmpty {
                    next.formUnion(automaton.steps[transition.target])
                }
            }
            if next.contains(automaton.acceptedState) { return true }
            if next.isEmpty { return false }
            active = next
        }
        return false
    }
}
