/// Finds which of many byte strings occur in a text in one pass (Aho–Corasick). Keys are
/// pattern ids; a text reports each id once per call at most, in no particular order.
///
/// The trie is built from node structs, then flattened into plain tables (edges sorted per
/// node, outputs in one list) that an engine image holds and a scan reads in place: a
/// blocklist's trie has hundreds of thousands of nodes and the scan runs on every request.
struct AhoCorasick: Sendable {
    /// One trie node, everything a scan step reads in one place (one cache line). Most nodes
    /// deep in a blocklist's trie have a single edge, which is kept in the node itself.
    struct Node: BitwiseCopyable, Sendable {
        /// The first edge (byte 0 and target 0: none); more edges are `edges[moreStart..<moreEnd]`.
        var firstTarget: Int32 = 0
        var moreStart: Int32 = 0
        var moreEnd: Int32 = 0
        /// A shallower node (breadth-first numbering puts it before this one).
        var failure: Int32 = 0
        /// The ids whose literal ends here are `outputIDs[outputStart..<outputEnd]`;
        /// `outputLink` leads to the nearest suffix node with ids of its own (-1: none).
        var outputStart: Int32 = 0
        var outputEnd: Int32 = 0
        var outputLink: Int32 = -1
        /// For a node with many edges: where its 128 ASCII targets start in `denseNext`, or -1.
        var dense: Int32 = -1
        var firstByte: UInt8 = 0
        /// Written as zeros: an image's bytes must not depend on what memory held before.
        var padding: (UInt8, UInt8, UInt8) = (0, 0, 0)
    }

    struct Edge: BitwiseCopyable, Sendable {
        var target: Int32
        var byte: UInt8
        var padding: (UInt8, UInt8, UInt8) = (0, 0, 0)
    }

    /// Nodes with at least this many edges get a dense table: near the root (`/`, `a`, `s`)
    /// nearly every letter follows, and a scan would walk dozens of edges per byte.
    private static let denseEdges = 6

    /// Transitions of the root, dense (256): most steps fall back to it.
    private let rootNext: FlatTable<Int32>
    private let nodes: FlatTable<Node>
    private let edges: FlatTable<Edge>
    private let outputIDs: FlatTable<Int32>
    private let denseNext: FlatTable<Int32>

    /// Builds the automaton of `literals` and writes its tables.
    static func write(_ literals: [(literal: [UInt8], id: Int)], into writer: inout ImageWriter) {
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
        // Breadth-first numbering: the shallow nodes, which every scan visits, sit together,
        // and every failure and output link points to a smaller number.
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
        var nodes = [Node](repeating: Node(), count: count)
        var flatEdges: [Edge] = []
        var outputIDs: [Int32] = []
        var denseNext: [Int32] = []
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
            nodes[node].moreStart = Int32(flatEdges.count)
            flatEdges += sorted.dropFirst().map { Edge(target: $0.target, byte: $0.byte) }
            nodes[node].moreEnd = Int32(flatEdges.count)
            nodes[node].outputStart = Int32(outputIDs.count)
            outputIDs += outputs[node]
            nodes[node].outputEnd = Int32(outputIDs.count)
        }
        var rootNext = [Int32](repeating: 0, count: 256)
        for edge in edges[0] { rootNext[Int(edge.byte)] = edge.target }
        func child(of node: Int, on byte: UInt8) -> Int? {
            if node == 0 { return rootNext[Int(byte)] == 0 ? nil : Int(rootNext[Int(byte)]) }
            return edges[node].first { $0.byte == byte }.map { Int($0.target) }
        }
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
        writer.write(rootNext)
        writer.write(nodes)
        writer.write(flatEdges)
        writer.write(outputIDs)
        writer.write(denseNext)
    }

    /// Reads the tables `write` wrote, checking every link: ids below `idCount`, edges,
    /// outputs and dense rows inside their tables, and failure and output links to smaller
    /// node numbers — so that no scan can read outside the image or loop for ever.
    init(reading reader: inout ImageReader, idCount: Int) throws(ImageError) {
        rootNext = try reader.table(Int32.self, "the literal trie's root")
        nodes = try reader.table(Node.self, "the literal trie's nodes")
        edges = try reader.table(Edge.self, "the literal trie's edges")
        outputIDs = try reader.table(Int32.self, "the literal trie's outputs")
        denseNext = try reader.table(Int32.self, "the literal trie's dense rows")
        let nodeCount = Int32(nodes.count)
        guard rootNext.count == 256, nodeCount >= 1 else { throw ImageError("the literal trie has no root") }
        try rootNext.check(0..<nodeCount, "the literal trie's root")
        try denseNext.check(0..<nodeCount, "the literal trie's dense rows")
        try outputIDs.check(0..<Int32(clamping: idCount), "the literal trie's outputs")
        for edge in edges.buffer where edge.target < 0 || edge.target >= nodeCount {
            throw ImageError("a literal trie edge leads to node \(edge.target) of \(nodeCount)")
        }
        let edgeCount = Int32(edges.count), outputCount = Int32(outputIDs.count), denseCount = denseNext.count
        for (number, node) in nodes.buffer.enumerated() {
            let index = Int32(number)
            guard node.firstTarget >= 0, node.firstTarget < nodeCount,
                  node.moreStart >= 0, node.moreStart <= node.moreEnd, node.moreEnd <= edgeCount,
                  node.outputStart >= 0, node.outputStart <= node.outputEnd, node.outputEnd <= outputCount,
                  node.failure >= 0, index == 0 ? node.failure == 0 : node.failure < index,
                  node.outputLink >= -1, node.outputLink < max(index, 1),
                  node.dense == -1 || (node.dense >= 0 && Int(node.dense) + 128 <= denseCount) else {
                throw ImageError("literal trie node \(number) links outside the trie")
            }
        }
    }

    var isEmpty: Bool { nodes.count <= 1 }

    /// Calls `found` with the id of every literal that occurs in `text` (lowercased already).
    /// Runs on the tables' raw buffers: this is the inner loop of every request's matching.
    func scan(_ text: UnsafeBufferPointer<UInt8>, _ found: (Int) -> Void) {
        guard !isEmpty else { return }
        let nodes = nodes.buffer, edges = edges.buffer, denseNext = denseNext.buffer, rootNext = rootNext.buffer, outputIDs = outputIDs.buffer
        @inline(__always) func child(_ node: Int, _ byte: UInt8) -> Int {
            if node == 0 { return Int(rootNext[Int(byte)]) }
            let entry = nodes[node]
            if entry.dense >= 0 { return byte < 128 ? Int(denseNext[Int(entry.dense) + Int(byte)]) : 0 }
            if entry.firstByte == byte, entry.firstTarget != 0 { return Int(entry.firstTarget) }
            if entry.firstByte > byte || entry.moreStart == entry.moreEnd { return 0 }
            for edge in Int(entry.moreStart)..<Int(entry.moreEnd) {
                let candidate = edges[edge]
                if candidate.byte == byte { return Int(candidate.target) }
                if candidate.byte > byte { break }
            }
            return 0
        }
        var node = 0
        for byte in text {
            // Most bytes of a URL start no literal: at the root, one table read decides, and
            // the root has no outputs to look at.
            if node == 0 {
                node = Int(rootNext[Int(byte)])
                if node == 0 { continue }
            } else {
                while true {
                    let next = child(node, byte)
                    if next != 0 { node = next; break }
                    if node == 0 { break }
                    node = Int(nodes[node].failure)
                }
            }
            var output = nodes[node].outputStart == nodes[node].outputEnd ? Int(nodes[node].outputLink) : node
            while output > 0 {
                for position in Int(nodes[output].outputStart)..<Int(nodes[output].outputEnd) { found(Int(outputIDs[position])) }
                output = Int(nodes[output].outputLink)
            }
        }
    }
}
