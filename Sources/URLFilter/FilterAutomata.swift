/// The automata of a matcher's distinct filters, all in a few shared tables of an engine
/// image, read in place: a DFA over byte classes for nearly every filter (`CompiledURLFilter`),
/// the NFA for the few whose DFA would be too large. Tens of thousands of filters become six
/// tables, not tens of thousands of objects to allocate when a list is loaded.
struct FilterAutomata: Sendable {
    struct Record: BitwiseCopyable, Sendable {
        /// 0: no automaton (the filter is decided without one); 1: a DFA; 2: an NFA.
        var kind: Int32
        var start: Int32
        /// A DFA's 128 byte classes at `classBytes[classes...]`, its transitions at
        /// `transitions[table...]`; an NFA's nodes at `nfaNodes[table...]`.
        var classes: Int32
        var classCount: Int32
        var table: Int32
        var stateCount: Int32
    }

    struct NFANode: BitwiseCopyable, Sendable {
        var transitionStart: Int32
        var transitionEnd: Int32
        var stepStart: Int32
        var stepEnd: Int32
    }

    struct NFATransition: BitwiseCopyable, Sendable {
        var low: UInt64
        var high: UInt64
        var target: Int32
        /// Written as zero: an image's bytes must not depend on what memory held before.
        var padding: Int32 = 0
    }

    private let records: FlatTable<Record>
    private let classBytes: FlatTable<UInt8>
    private let transitions: FlatTable<UInt16>
    private let nfaNodes: FlatTable<NFANode>
    private let nfaTransitions: FlatTable<NFATransition>
    private let nfaSteps: FlatTable<Int32>

    /// A DFA's state 0 is dead, state 1 has matched (`CompiledURLFilter`).
    private static let dead = 0, matched = 1

    /// Writes one record per filter: `compiled[i]` is filter i's automaton, nil for none.
    static func write(_ compiled: [CompiledURLFilter?], into writer: inout ImageWriter) {
        var records: [Record] = []
        var classBytes: [UInt8] = []
        var transitions: [UInt16] = []
        var nodes: [NFANode] = []
        var nfaTransitions: [NFATransition] = []
        var steps: [Int32] = []
        for filter in compiled {
            switch filter?.tables {
            case nil:
                records.append(Record(kind: 0, start: 0, classes: 0, classCount: 0, table: 0, stateCount: 0))
            case .dfa(let classOf, let classCount, let table, let start)?:
                records.append(Record(kind: 1, start: Int32(start), classes: Int32(classBytes.count), classCount: Int32(classCount),
                                      table: Int32(transitions.count), stateCount: Int32(table.count / max(classCount, 1))))
                classBytes += classOf
                transitions += table
            case .nfa(let automaton)?:
                // The nodes, then the absorbing "has matched" state (`acceptedState`).
                let count = automaton.nodes.count + 1
                records.append(Record(kind: 2, start: Int32(automaton.start), classes: 0, classCount: 0, table: Int32(nodes.count), stateCount: Int32(count)))
                for node in 0..<count {
                    let moves = node < automaton.nodes.count ? automaton.nodes[node].transitions : []
                    let stepStart = Int32(steps.count)
                    steps += automaton.steps[node].map(Int32.init)
                    nodes.append(NFANode(transitionStart: Int32(nfaTransitions.count), transitionEnd: Int32(nfaTransitions.count + moves.count),
                                         stepStart: stepStart, stepEnd: Int32(steps.count)))
                    nfaTransitions += moves.map { NFATransition(low: $0.set.low, high: $0.set.high, target: Int32($0.target)) }
                }
            }
        }
        writer.write(records)
        writer.write(classBytes)
        writer.write(transitions)
        writer.write(nodes)
        writer.write(nfaTransitions)
        writer.write(steps)
    }

    /// Reads what `write` wrote for `filterCount` filters and checks every automaton: byte
    /// classes below the class count, transitions and starts below the state count, every
    /// table range inside its table.
    init(reading reader: inout ImageReader, filterCount: Int) throws(ImageError) {
        records = try reader.table(Record.self, "the filters' automata")
        classBytes = try reader.table(UInt8.self, "the automata's byte classes")
        transitions = try reader.table(UInt16.self, "the automata's transitions")
        nfaNodes = try reader.table(NFANode.self, "the automata's NFA nodes")
        nfaTransitions = try reader.table(NFATransition.self, "the automata's NFA moves")
        nfaSteps = try reader.table(Int32.self, "the automata's NFA steps")
        guard records.count == filterCount else { throw ImageError("\(records.count) automata for \(filterCount) filters") }
        for (filter, record) in records.buffer.enumerated() {
            switch record.kind {
            case 0: continue
            case 1: try checkDFA(record, filter)
            case 2: try checkNFA(record, filter)
            default: throw ImageError("filter \(filter)'s automaton is of kind \(record.kind)")
            }
        }
    }

    private func checkDFA(_ record: Record, _ filter: Int) throws(ImageError) {
        let classes = Int(record.classes), classCount = Int(record.classCount), states = Int(record.stateCount), table = Int(record.table)
        guard classes >= 0, classes + 128 <= classBytes.count, classCount >= 1, classCount <= 128, states >= 2, states <= Int(UInt16.max),
              record.start >= 0, Int(record.start) < states, table >= 0, table + states * classCount <= transitions.count else {
            throw ImageError("filter \(filter)'s DFA lies outside its tables")
        }
        for byte in classBytes.slice(classes..<(classes + 128)) where Int(byte) >= classCount {
            throw ImageError("filter \(filter)'s DFA has byte class \(byte) of \(classCount)")
        }
        for target in transitions.slice(table..<(table + states * classCount)) where Int(target) >= states {
            throw ImageError("filter \(filter)'s DFA moves to state \(target) of \(states)")
        }
    }

    private func checkNFA(_ record: Record, _ filter: Int) throws(ImageError) {
        let table = Int(record.table), states = Int(record.stateCount)
        guard table >= 0, states >= 1, table + states <= nfaNodes.count, record.start >= 0, Int(record.start) < states else {
            throw ImageError("filter \(filter)'s NFA lies outside its tables")
        }
        for node in nfaNodes.slice(table..<(table + states)) {
            guard node.transitionStart >= 0, node.transitionStart <= node.transitionEnd, Int(node.transitionEnd) <= nfaTransitions.count,
                  node.stepStart >= 0, node.stepStart <= node.stepEnd, Int(node.stepEnd) <= nfaSteps.count else {
                throw ImageError("filter \(filter)'s NFA has a node outside its tables")
            }
            for move in nfaTransitions.slice(Int(node.transitionStart)..<Int(node.transitionEnd)) where move.target < 0 || Int(move.target) >= states {
                throw ImageError("filter \(filter)'s NFA moves to node \(move.target) of \(states)")
            }
            for step in nfaSteps.slice(Int(node.stepStart)..<Int(node.stepEnd)) where step < 0 || Int(step) >= states {
                throw ImageError("filter \(filter)'s NFA steps to node \(step) of \(states)")
            }
        }
    }

    /// Whether filter `id` matches `url` (its bytes, then WebKit's end-of-string sentinel 0).
    @inline(__always)
    func matches(_ id: Int, _ url: UnsafeBufferPointer<UInt8>) -> Bool {
        let record = records[id]
        switch record.kind {
        case 1: return runDFA(record, url)
        case 2: return runNFA(record, url)
        default: return false
        }
    }

    private func runDFA(_ record: Record, _ url: UnsafeBufferPointer<UInt8>) -> Bool {
        var state = Int(record.start)
        if state == Self.matched { return true }
        let classCount = Int(record.classCount)
        let table = transitions.slice(Int(record.table)..<(Int(record.table) + Int(record.stateCount) * classCount))
        let classes = classBytes.slice(Int(record.classes)..<(Int(record.classes) + 128))
        for index in 0...url.count {
            // The sentinel 0 ends the URL; a byte beyond ASCII matches no set.
            let byte = index < url.count ? url[index] : 0
            guard byte < 128 else { return false }
            state = Int(table[state &* classCount &+ Int(classes[Int(byte)])])
            if state == Self.matched { return true }
            if state == Self.dead { return false }
        }
        return false
    }

    private func runNFA(_ record: Record, _ url: UnsafeBufferPointer<UInt8>) -> Bool {
        let base = Int(record.table), states = Int(record.stateCount), accepted = states - 1
        var isActive = [Bool](repeating: false, count: states)
        var active: [Int] = []
        func step(into list: inout [Int], _ node: Int) {
            let entry = nfaNodes[base + node]
            for target in nfaSteps.slice(Int(entry.stepStart)..<Int(entry.stepEnd)) where !isActive[Int(target)] {
                isActive[Int(target)] = true
                list.append(Int(target))
            }
        }
        step(into: &active, Int(record.start))
        if isActive[accepted] { return true }
        for index in 0...url.count {
            let byte = index < url.count ? url[index] : 0
            guard byte < 128 else { return false }
            let (low, high): (UInt64, UInt64) = byte < 64 ? (1 << UInt64(byte), 0) : (0, 1 << UInt64(byte - 64))
            for node in active { isActive[node] = false }
            var next: [Int] = []
            for node in active where node != accepted {
                let entry = nfaNodes[base + node]
                for move in nfaTransitions.slice(Int(entry.transitionStart)..<Int(entry.transitionEnd)) where move.low & low != 0 || move.high & high != 0 {
                    step(into: &next, Int(move.target))
                }
            }
            if isActive[accepted] { return true }
            if next.isEmpty { return false }
            active = next
        }
        return false
    }
}
