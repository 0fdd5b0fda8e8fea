/// Finds which of many byte strings occur in a text in one pass (Aho–Corasick). Keys are
/// pattern ids; a text reports each id once per call at most, in no particular order.
///
/// The trie is built from node structs, then flattened into plain arrays (edges sorted per
/// node, outputs in one list) so that a scan chases no references: a blocklist's trie has
/// hundreds of thousands of nodes and the scan runs on every request.
struct AhoCorasick: Sendable {
    /// One trie node, everything a scan step reads in one place (one cache line). Most nodes
    /// deep in a blocklist's trie have a single edge, which is kept in the node itself.
    private struct Node: Sendable {
        /// The first edge (byte 0 and target 0: none); more edges are `edges[moreEdges]`.
        var firstByte: UInt8 = 0
        var firstTarget: Int32 = 0
        var moreEdges: Range<Int32> = 0..<0
        var failure: Int32 = 0
        /// The ids whose literal ends here are `outputIDs[outputs]`; `outputLink` leads to the
        /// nearest suffix node with ids of its own (-1: none).
        var outputs: Range<Int32> = 0..<0
        var outputLink: Int32 = -1
        /// For a node with many edges: where its 128 ASCII targets start in `denseNext`, or -1.
        var dense: Int32 = -1
    }

    /// Nodes with at least this many edges get a dense table: near the root (`/`, `a`, `s`)
    /// nearly every letter follows, and a scan would walk dozens of edges per byte.
    private static let denseEdges = 6

    /// Transitions of the root, dense: most steps fall back to it.
    private var rootNext = [Int32](repeating: 0, count: 256)
    private var nodes: [Node] = [Node()]
    private var edges: [(byte: UInt8, target: Int32)] = []
    private var outputIDs: [Int32] = []
    private var denseNext: [Int32] = []

    init(_ literals: [(literal: [UInt8], id: Int)]) {
        var edges: [[(byte: UInt8, target: Int32)]] = [[]]
        var outputs: [[Int32]] = [[]]
        for (literal, id) in literals where !literal.isEmpty {
            var node = 0
            for byte in literal {
                if let edge = edges[node].first(where: { $0.byte == byte }) {
                    node = Int(edge.target)
                } else {
                    edges.append([])
                    outputs.append([])
                    edges[node].append((byte, Int32(edges.count - 1)))
                    node = edges.count - 1
                }
            }
            outputs[node].append(Int32(id))
        }
        // Breadth-first numbering: the shallow nodes, which every scan visits, sit together.
        var order = [0]
        var head = 0
        while head < order.count {
            order += edges[order[head]].map { Int($0.target) }
            head += 1
        }
        var renumbered = [Int32](repeating: 0, count: edges.count)
        for (new, old) in order.enumerated() { renumbered[old] = Int32(new) }
        edges = order.map { old in edges[old].map { ($0.byte, renumbered[Int($0.target)]) } }
        outputs = order.map { outputs[$0] }

        let count = edges.count
        nodes = Array(repeating: Node(), count: count)
        for node in 0..<count {
            let sorted = edges[node].sorted { $0.byte < $1.byte }
            if let first = sorted.first {
                nodes[node].firstByte = first.byte
                nodes[node].firstTarget = first.target
            }
            if sorted.count >= Self.denseEdges, sorted.allSatisfy({ $0.byte < 128 }) {
                nodes[node].dense = Int32(denseNext.count)
                var table = [Int32](repeating: 0, count: 128)
                for edge in sorted { table[Int(edge.byte)] = edge.target }
                denseNext += table
            }
            let start = Int32(self.edges.count)
            self.edges += sorted.dropFirst()
            nodes[node].moreEdges = start..<Int32(self.edges.count)
            let outputStart = Int32(outputIDs.count)
            outputIDs += outputs[node]
            nodes[node].outputs = outputStart..<Int32(outputIDs.count)
        }
        for edge in edges[0] { rootNext[Int(edge.byte)] = edge.target }
        // Breadth-first failure links.
        var queue: [Int] = edges[0].map { Int($0.target) }
        head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for (byte, target) in edges[node] {
                var fallback = Int(nodes[node].failure)
                var link = 0
                while true {
                    if let next = child(of: fallback, on: byte) { link = next; break }
                    if fallback == 0 { break }
                    fallback = Int(nodes[fallback].failure)
                }
                if link == Int(target) { link = 0 }
                nodes[Int(target)].failure = Int32(link)
                nodes[Int(target)].outputLink = outputs[link].isEmpty ? nodes[link].outputLink : Int32(link)
                queue.append(Int(target))
            }
        }
    }

    @inline(__always)
    private func child(of node: Int, on byte: UInt8) -> Int? {
        if node == 0 { return rootNext[Int(byte)] == 0 ? nil : Int(rootNext[Int(byte)]) }
        let entry = nodes[node]
        if entry.dense >= 0 {
            let target = byte < 128 ? denseNext[Int(entry.dense) + Int(byte)] : 0
            return target == 0 ? nil : Int(target)
        }
        if entry.firstByte == byte, entry.firstTarget != 0 { return Int(entry.firstTarget) }
        if entry.firstByte > byte || entry.moreEdges.isEmpty { return nil }
        // Edges are few and sorted: a linear scan is fastest.
        for edge in entry.moreEdges {
            let candidate = edges[Int(edge)]
            if candidate.byte == byte { return Int(candidate.target) }
            if candidate.byte > byte { break }
        }
        return nil
    }

    var isEmpty: Bool { nodes.count == 1 }

    /// Calls `found` with the id of every literal that occurs in `text` (lowercased already).
    /// Runs on the tables' raw buffers: this is the inner loop of every request's matching.
    func scan(_ text: UnsafeBufferPointer<UInt8>, _ found: (Int) -> Void) {
        guard !isEmpty else { return }
        nodes.withUnsafeBufferPointer { nodes in
            edges.withUnsafeBufferPointer { edges in
                denseNext.withUnsafeBufferPointer { denseNext in
                    rootNext.withUnsafeBufferPointer { rootNext in
                        outputIDs.withUnsafeBufferPointer { outputIDs in
                            @inline(__always) func child(_ node: Int, _ byte: UInt8) -> Int {
                                if node == 0 { return Int(rootNext[Int(byte)]) }
                                let entry = nodes[node]
                                if entry.dense >= 0 { return byte < 128 ? Int(denseNext[Int(entry.dense) + Int(byte)]) : 0 }
                                if entry.firstByte == byte, entry.firstTarget != 0 { return Int(entry.firstTarget) }
                                if entry.firstByte > byte || entry.moreEdges.isEmpty { return 0 }
                                for edge in entry.moreEdges {
                                    let candidate = edges[Int(edge)]
                                    if candidate.byte == byte { return Int(candidate.target) }
                                    if candidate.byte > byte { break }
                                }
                                return 0
                            }
                            var node = 0
                            for byte in text {
                                while true {
                                    let next = child(node, byte)
                                    if next != 0 { node = next; break }
                                    if node == 0 { break }
                                    node = Int(nodes[node].failure)
                                }
                                var output = nodes[node].outputs.isEmpty ? Int(nodes[node].outputLink) : node
                                while output > 0 {
                                    for position in nodes[output].outputs { found(Int(outputIDs[Int(position)])) }
                                    output = Int(nodes[output].outputLink)
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
