/// A url-filter as an NFA, built the way WebKit's `Term::generateGraph` builds its NFA
/// (Source/WebCore/contentextensions/Term.h): one transition per character set, epsilon moves
/// for `?`, `*` and `+`. The alphabet is ASCII 0...127, where 0 is the end-of-string sentinel
/// WebKit appends to every URL (`$` is a transition on it).
///
/// WebKit's DFA reports a rule as soon as it reaches a final state, so a filter matches a URL
/// when it accepts some prefix of `URL + "\0"`.
public struct URLFilterAutomaton: Sendable {
    struct Node: Sendable {
        var transitions: [(set: CharacterBits, target: Int)] = []
        var epsilons: [Int] = []
    }

    /// 128 bits, one per ASCII code point.
    struct CharacterBits: Sendable, Equatable {
        var low: UInt64
        var high: UInt64

        static let all = CharacterBits(low: .max, high: .max)
        static let sentinel = CharacterBits(low: 1, high: 0)

        /// One ASCII byte.
        static func single(_ byte: UInt8) -> CharacterBits {
            byte < 64 ? CharacterBits(low: 1 << UInt64(byte), high: 0) : CharacterBits(low: 0, high: 1 << UInt64(byte - 64))
        }

        var isEmpty: Bool { low == 0 && high == 0 }
        func intersection(_ other: CharacterBits) -> CharacterBits { CharacterBits(low: low & other.low, high: high & other.high) }
        var containsSentinel: Bool { low & 1 != 0 }
        var containsCharacters: Bool { low & ~1 != 0 || high != 0 }
    }

    var nodes: [Node] = [Node()]
    let start = 0
    var accepting = 0
    /// Per node, the nodes its epsilon closure reaches, or `[acceptedState]` when the closure
    /// holds an accepting node: once a filter has matched, it stays matched.
    private(set) var steps: [[Int]] = []

    /// The absorbing "has matched" state of `canMatchSameURL`, numbered after the nodes.
    var acceptedState: Int { nodes.count }

    public init(_ filter: ParsedURLFilter) {
        var end = start
        for term in filter.terms {
            let next = addNode()
            add(term, from: end, to: next)
            end = next
        }
        accepting = end
        let accepted = nodes.count
        steps = nodes.indices.map { node in
            let closure = closure(of: node)
            return closure.contains(end) ? [accepted] : closure
        } + [[accepted]]
    }

    private mutating func addNode() -> Int {
        nodes.append(Node())
        return nodes.count - 1
    }

    // WebKit `Term::generateGraph`.
    private mutating func add(_ term: Term, from source: Int, to destination: Int) {
        switch term.quantifier {
        case .one:
            addAtom(term, from: source, to: destination)
        case .zeroOrOne:
            addAtom(term, from: source, to: destination)
            nodes[source].epsilons.append(destination)
        case .zeroOrMore, .oneOrMore:
            let repeatStart = addNode()
            nodes[source].epsilons.append(repeatStart)
            let repeatEnd = addNode()
            addAtom(term, from: repeatStart, to: repeatEnd)
            nodes[repeatEnd].epsilons.append(repeatStart)
            nodes[repeatEnd].epsilons.append(destination)
            if term.quantifier == .zeroOrMore { nodes[source].epsilons.append(destination) }
        }
    }

    // WebKit `Term::generateSubgraphForAtom`.
    private mutating func addAtom(_ term: Term, from source: Int, to destination: Int) {
        switch term.atom {
        case .characterSet(let set):
            var bits = CharacterBits(low: set.low, high: set.high)
            if set.isInverted {
                // An inverted set never matches the sentinel.
                bits = CharacterBits(low: ~set.low & ~1, high: ~set.high)
            }
            if !bits.isEmpty { nodes[source].transitions.append((bits, destination)) }
        case .group(let terms):
            guard !terms.isEmpty else {
                nodes[source].epsilons.append(destination)
                return
            }
            var current = source
            for (index, inner) in terms.enumerated() {
                let next = index == terms.count - 1 ? destination : addNode()
                add(inner, from: current, to: next)
                current = next
            }
        }
    }

    private func closure(of node: Int) -> [Int] {
        guard !nodes[node].epsilons.isEmpty else { return [node] }
        // Closures are a handful of nodes: a linear scan beats hashing.
        var seen = [node]
        var stack = [node]
        while let current = stack.popLast() {
            for next in nodes[current].epsilons where !seen.contains(next) {
                seen.append(next)
                stack.append(next)
            }
        }
        return seen.sorted()
    }

    /// Whether some URL is matched by both filters, i.e. both accept a prefix of one
    /// `URL + "\0"`; nil when `budget` transitions were not enough to decide.
    public static func canMatchSameURL(_ lhs: URLFilterAutomaton, _ rhs: URLFilterAutomaton, budget: Int = 1_000_000) -> Bool? {
        switch URLFilterAutomatonSet([rhs]).firstOverlap(with: lhs, budget: budget) {
        case .none: return false
        case .member: return true
        case .undecided: return nil
        }
    }
}
