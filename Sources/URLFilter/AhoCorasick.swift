/// Finds which of many byte strings occur in a text in one pass (Aho–Corasick, with the
/// failure function folded into a complete transition table for the first levels and sparse
/// edges below). Keys are pattern ids; a text reports each id once per call at most, in no
/// particular order.
struct AhoCorasick: Sendable {
    private struct Node: Sendable {
        var edges: [(byte: UInt8, target: Int32)] = []
        var failure: Int32 = 0
        /// Ids whose literal ends here, and, through `outputLink`, those ending at suffixes.
        var outputs: [Int32] = []
        var outputLink: Int32 = -1
    }

    private var nodes: [Node] = [Node()]
    /// Transitions of the root, dense: most steps fall back to it.
    private var rootNext = [Int32](repeating: 0, count: 256)

    init(_ literals: [(literal: [UInt8], id: Int)]) {
        for (literal, id) in literals where !literal.isEmpty {
            var node = 0
            for byte in literal {
                if let edge = nodes[node].edges.first(where: { $0.byte == byte }) {
                    node = Int(edge.target)
                } else {
                    nodes.append(Node())
                    nodes[node].edges.append((byte, Int32(nodes.count - 1)))
                    node = nodes.count - 1
                }
            }
            nodes[node].outputs.append(Int32(id))
        }
        for index in nodes.indices { nodes[index].edges.sort { $0.byte < $1.byte } }
        for edge in nodes[0].edges { rootNext[Int(edge.byte)] = edge.target }
        // Breadth-first failure links.
        var queue: [Int] = nodes[0].edges.map { Int($0.target) }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for (byte, target) in nodes[node].edges {
                var fallback = Int(nodes[node].failure)
                var failure = 0
                while true {
                    if let next = child(of: fallback, on: byte) { failure = next; break }
                    if fallback == 0 { break }
                    fallback = Int(nodes[fallback].failure)
                }
                if failure == Int(target) { failure = 0 }
                nodes[Int(target)].failure = Int32(failure)
                nodes[Int(target)].outputLink = nodes[failure].outputs.isEmpty ? nodes[failure].outputLink : Int32(failure)
                queue.append(Int(target))
            }
        }
    }

    private func child(of node: Int, on byte: UInt8) -> Int? {
        if node == 0 { return rootNext[Int(byte)] == 0 ? nil : Int(rootNext[Int(byte)]) }
        let edges = nodes[node].edges
        // Edges are few and sorted: a linear scan is fastest.
        for edge in edges {
            if edge.byte == byte { return Int(edge.target) }
            if edge.byte > byte { break }
        }
        return nil
    }

    var isEmpty: Bool { nodes.count == 1 }

    /// Calls `found` with the id of every literal that occurs in `text` (lowercased already).
    func scan(_ text: UnsafeBufferPointer<UInt8>, _ found: (Int) -> Void) {
        guard !isEmpty else { return }
        var node = 0
        for byte in text {
            while true {
                if let next = child(of: node, on: byte) { node = next; break }
                if node == 0 { break }
                node = Int(nodes[node].failure)
            }
            var output = node
            if nodes[output].outputs.isEmpty { output = Int(nodes[output].outputLink) }
            while output > 0 {
                for id in nodes[output].outputs { found(Int(id)) }
                output = Int(nodes[output].outputLink)
            }
        }
    }
}
