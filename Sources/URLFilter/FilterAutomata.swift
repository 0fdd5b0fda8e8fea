/// The automata of a matcher's distinct filters, all in a few shared tables of an engine
/// image, read in place: a DFA over byte classes for nearly every filter (`CompiledURLFilter`),
/// the NFA for the few whose DFA would be too large. Tens of thousands of filters become six
/// tables, not tens of thousands of objects to allocate when a list is loaded.
struct FilterAutomata: Sendable {
    /// What decides a filter once the matcher has it as a candidate (builder side).
    enum Decider {
        /// Nothing runs: the filter is decided by an index (host names, domains) or never a candidate.
        case none
        /// Its literal was found, and that is the match (`RequiredLiteral.whole`).
        case literal
        case automaton
    }

    /// What a filter keeps (writer side).
    enum Entry {
        case none
        case literal
        case compiled(CompiledURLFilter)
    }

    struct Record: BitwiseCopyable, Sendable {
        /// 1: a DFA with 16-bit transitions; 2: an NFA; 3: a DFA with 8-bit transitions (up to
        /// 256 states, nearly all of them).
        var kind: Int32
        var start: Int32
        /// A DFA's 128 byte classes at `classBytes[classes...]` (equal maps are stored once),
        /// its transitions at `transitions16[table...]` or `transitions8[table...]`; an NFA's
        /// nodes at `nfaNodes[table...]`.
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

    /// Per filter: its automaton in `records`, or `none` (-1) or `literal` (-2).
    private let automatonOf: FlatTable<Int32>
    private let records: FlatTable<Record>
    private let classBytes: FlatTable<UInt8>
    private let transitions16: FlatTable<UInt16>
    private let transitions8: FlatTable<UInt8>
    private let nfaNodes: FlatTable<NFANode>
    private let nfaTransitions: FlatTable<NFATransition>
    private let nfaSteps: FlatTable<Int32>

    private static let none: Int32 = -1, literal: Int32 = -2

    /// Writes what decides each filter: `entries[i]` is filter i's.
    static func write(_ entries: [Entry], into writer: inout ImageWriter) {
        var automatonOf: [Int32] = []
        var records: [Record] = []
        var classBytes: [UInt8] = []
        var classMaps: [[UInt8]: Int32] = [:]
        var transitions16: [UInt16] = []
        var transitions8: [UInt8] = []
        var nodes: [NFANode] = []
        var nfaTransitions: [NFATransition] = []
        var steps: [Int32] = []
        for entry in entries {
            switch entry {
            case .none: automatonOf.append(none)
            case .literal: automatonOf.append(literal)
            case .compiled(let filter):
                automatonOf.append(Int32(records.count))
                switch filter.tables {
                case .dfa(let classOf, let classCount, let table, let start):
                    let classes: Int32
                    if let known = classMaps[classOf] {
                        classes = known
                    } else {
                        classes = Int32(classBytes.count)
                        classMaps[classOf] = classes
                        classBytes += classOf
                    }
                    let states = table.count / max(classCount, 1)
                    if states <= 256 {
                        records.append(Record(kind: 3, start: Int32(start), classes: classes, classCount: Int32(classCount), table: Int32(transitions8.count), stateCount: Int32(states)))
                        transitions8 += table.map { UInt8(truncatingIfNeeded: $0) }
                    } else {
                        records.append(Record(kind: 1, start: Int32(start), classes: classes, classCount: Int32(classCount), table: Int32(transitions16.count), stateCount: Int32(states)))
                        transitions16 += table
                    }
                case .nfa(let automaton):
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
        }
        writer.write(automatonOf)
        writer.write(records)
        writer.write(classBytes)
        writer.write(transitions16)
        writer.write(transitions8)
        writer.write(nodes)
        writer.write(nfaTransitions)
        writer.write(steps)
    }

    /// Reads what `write` wrote for `filterCount` filters and checks every automaton: byte
    /// classes below the class count, transitions and starts below the state count, every
    /// table range inside its table.
    init(reading reader: inout ImageReader, filterCount: Int) throws(ImageError) {
        automatonOf = try reader.table(Int32.self, "the filters' deciders")
        records = try reader.table(Record.self, "the filters' automata")
        classBytes = try reader.table(UInt8.self, "the automata's byte classes")
        transitions16 = try reader.table(UInt16.self, "the automata's wide transitions")
        transitions8 = try reader.table(UInt8.self, "the automata's transitions")
        nfaNodes = try reader.table(NFANode.self, "the automata's NFA nodes")
        nfaTransitions = try reader.table(NFATransition.self, "the automata's NFA moves")
        nfaSteps = try reader.table(Int32.self, "the automata's NFA steps")
        guard automatonOf.count == filterCount else { throw ImageError("deciders for \(automatonOf.count) filters of \(filterCount)") }
        try automatonOf.check(-2..<Int32(records.count), "the filters' deciders")
        for (number, record) in records.buffer.enumerated() {
            switch record.kind {
            case 1, 3: try checkDFA(record, number)
            case 2: try checkNFA(record, number)
            default: throw ImageError("automaton \(number) is of kind \(record.kind)")
            }
        }
    }

    private func checkDFA(_ record: Record, _ filter: Int) throws(ImageError) {
        let classes = Int(record.classes), classCount = Int(record.classCount), states = Int(record.stateCount), table = Int(record.table)
        let isNarrow = record.kind == 3
        let transitionCount = isNarrow ? transitions8.count : transitions16.count
        guard classes >= 0, classes + 128 <= classBytes.count, classCount >= 1, classCount <= 128, states >= 2, states <= (isNarrow ? 256 : Int(UInt16.max)),
              record.start >= 0, Int(record.start) < states, table >= 0, table + states * classCount <= transitionCount else {
            throw ImageError("automaton \(filter)'s DFA lies outside its tables")
        }
        for byte in classBytes.slice(classes..<(classes + 128)) where Int(byte) >= classCount {
            throw ImageError("automaton \(filter)'s DFA has byte class \(byte) of \(classCount)")
        }
        let range = table..<(table + states * classCount)
        let highest = isNarrow ? Int(transitions8.slice(range).max() ?? 0) : Int(transitions16.slice(range).max() ?? 0)
        guard highest < states else { throw ImageError("automaton \(filter)'s DFA moves to state \(highest) of \(states)") }
    }

    private func checkNFA(_ record: Record, _ filter: Int) throws(ImageError) {
        let table = Int(record.table), states = Int(record.stateCount)
        guard table >= 0, states >= 1, table + states <= nfaNodes.count, record.start >= 0, Int(record.start) < states else {
            throw ImageError("automaton \(filter)'s NFA lies outside its tables")
        }
        for node in nfaNodes.slice(table..<(table + states)) {
            guard node.transitionStart >= 0, node.transitionStart <= node.transitionEnd, Int(node.transitionEnd) <= nfaTransitions.count,
                  node.stepStart >= 0, node.stepStart <= node.stepEnd, Int(node.stepEnd) <= nfaSteps.count else {
                throw ImageError("automaton \(filter)'s NFA has a node outside its tables")
            }
            for move in nfaTransitions.slice(Int(node.transitionStart)..<Int(node.transitionEnd)) where move.target < 0 || Int(move.target) >= states {
                throw ImageError("automaton \(filter)'s NFA moves to node \(move.target) of \(states)")
            }
            for step in nfaSteps.slice(Int(node.stepStart)..<Int(node.stepEnd)) where step < 0 || Int(step) >= states {
                throw ImageError("automaton \(filter)'s NFA steps to node \(step) of \(states)")
            }
        }
    }

    /// Whether candidate filter `id` matches `url` (its bytes, then WebKit's end-of-string
    /// sentinel 0). A literal-only filter is a candidate only when its literal was found.
    @inline(__always)
    func matches(_ id: Int, _ url: UnsafeBufferPointer<UInt8>) -> Bool {
        let automaton = automatonOf[id]
        if automaton < 0 { return automaton == Self.literal }
        let record = records[Int(automaton)]
        switch record.kind {
        case 3: return runDFA(record, transitions8, url)
        case 1: return runDFA(record, transitions16, url)
        default: return runNFA(record, url)
        }
    }

    private func runDFA<State: FixedWidthInteger>(_ record: Record, _ transitions: FlatTable<State>, _ url: UnsafeBufferPointer<UInt8>) -> Bool {
        let classCount = Int(record.classCount)
        let table = transitions.slice(Int(record.table)..<(Int(record.table) + Int(record.stateCount) * classCount))
        let classes = classBytes.slice(Int(record.classes)..<(Int(record.classes) + 128))
        return CompiledURLFilter.runDFA(start: Int(record.start), classCount: classCount, table: table, classes: classes, url)
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
