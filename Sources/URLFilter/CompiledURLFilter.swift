/// One url-filter ready to run on URLs: its NFA with the states as bits of a word, so a step
/// is a handful of AND/OR operations and a match is linear in the URL's length — no
/// backtracking (WebKit runs a DFA; this is the same language, checked by a property test).
///
/// WebKit matches `URL + "\0"` and reports a rule as soon as its DFA reaches a final state, so
/// a filter matches when it accepts some prefix of the URL followed by the sentinel.
public struct CompiledURLFilter: Sendable {
    /// For automata of up to 64 states (nearly all): per state, its moves as (characters,
    /// closure of targets as a mask).
    private var moves: [[(characters: URLFilterAutomaton.CharacterBits, targets: UInt64)]] = []
    private var startMask: UInt64 = 0
    private var acceptedBit: UInt64 = 0
    /// Larger automata run on the automaton itself.
    private var large: URLFilterAutomaton?

    public init(_ filter: ParsedURLFilter) {
        let automaton = URLFilterAutomaton(filter)
        let count = automaton.acceptedState + 1
        guard count <= 64 else {
            large = automaton
            return
        }
        func mask(_ states: [Int]) -> UInt64 { states.reduce(0) { $0 | (1 << UInt64($1)) } }
        acceptedBit = 1 << UInt64(automaton.acceptedState)
        startMask = mask(automaton.steps[automaton.start])
        moves = (0..<count).map { state in
            if state == automaton.acceptedState { return [] }
            return automaton.nodes[state].transitions.map { ($0.set, mask(automaton.steps[$0.target])) }
        }
    }

    /// Whether the filter matches `url` (its bytes; WebKit's canonical URLs are ASCII).
    public func matches(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        if let large { return Self.runLarge(large, url) }
        var active = startMask
        if active & acceptedBit != 0 { return true }
        for index in 0...url.count {
            // The sentinel 0 ends the URL; a byte beyond ASCII matches no set.
            let byte = index < url.count ? url[index] : 0
            guard byte < 128 else { return false }
            let low = byte < 64 ? UInt64(1) << UInt64(byte) : 0
            let high = byte >= 64 ? UInt64(1) << UInt64(byte - 64) : 0
            var next: UInt64 = 0
            var remaining = active
            while remaining != 0 {
                let state = remaining.trailingZeroBitCount
                remaining &= remaining - 1
                for move in moves[state] where move.characters.low & low != 0 || move.characters.high & high != 0 {
                    next |= move.targets
                }
            }
            if next & acceptedBit != 0 { return true }
            if next == 0 { return false }
            active = next
        }
        return false
    }

    public func matches(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { matches($0) }
    }

    private static func runLarge(_ automaton: URLFilterAutomaton, _ url: UnsafeBufferPointer<UInt8>) -> Bool {
        var active = Set(automaton.steps[automaton.start])
        if active.contains(automaton.acceptedState) { return true }
        for index in 0...url.count {
            let byte = index < url.count ? url[index] : 0
            guard byte < 128 else { return false }
            let bit = byte < 64
                ? URLFilterAutomaton.CharacterBits(low: 1 << UInt64(byte), high: 0)
                : URLFilterAutomaton.CharacterBits(low: 0, high: 1 << UInt64(byte - 64))
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
