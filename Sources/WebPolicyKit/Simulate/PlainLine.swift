import WebPolicyRuntime

/// A plain subresource line of a block, as a counted simulation takes it: where its bytes are
/// in the block, and small numbers. Nearly every line of a captured trace is one (a type and
/// a canonical URL), and a summary needs its verdict alone: no string, URL object or entry is
/// made for it. Any other line is parsed into a `TraceEntry`.
struct PlainLine: Sendable {
    var line: Int32
    /// The whole line, for the entry it becomes when its `expect=` fails and a report shows it.
    var lineStart: Int32
    var lineEnd: Int32
    /// What content rules match: the canonical URL up to its fragment.
    var requestStart: Int32
    var requestEnd: Int32
    var hostStart: Int32
    var hostEnd: Int32
    var resourceType: ResourceType
    var expect: Verdict?
    /// http on its default port: `make-https` upgrades it.
    var isUpgradable: Bool
    /// The `top=` and `frame=` URLs' bytes in the block, canonical as written; empty ranges
    /// when the line names neither (its page is the view's).
    var topStart: Int32 = 0
    var topEnd: Int32 = 0
    var frameStart: Int32 = 0
    var frameEnd: Int32 = 0

    /// The line names its own page or frame (`top=`, `frame=`): it is matched on that page,
    /// not on the view's.
    var namesItsContext: Bool { topEnd > topStart || frameEnd > frameStart }
}

/// The lines of a block parsed together on one core: entries, and — for a counted simulation
/// — plain lines, each after as many of the entries as `entriesBefore` says. The plain lines
/// point into `bytes`, the block they were read in.
struct TraceRun: Sendable {
    var entries: [TraceEntry]
    var plain: [(entriesBefore: Int32, line: PlainLine)] = []
    var bytes: [UInt8] = []

    var count: Int { entries.count + plain.count }

    /// The run as entries alone, in order: for outputs that keep a result for every line.
    func materialised() -> [TraceEntry] {
        guard !plain.isEmpty else { return entries }
        var all: [TraceEntry] = []
        all.reserveCapacity(count)
        var next = 0
        bytes.withUnsafeBufferPointer { bytes in
            for (before, line) in plain {
                while next < Int(before) {
                    all.append(entries[next])
                    next += 1
                }
                all.append(line.entry(in: bytes))
            }
        }
        all += entries[next...]
        return all
    }
}

extension PlainLine {
    /// The line parsed into an entry, as any other line is.
    func entry(in block: UnsafeBufferPointer<UInt8>) -> TraceEntry {
        let bytes = UnsafeBufferPointer(rebasing: block[Int(lineStart)..<Int(lineEnd)])
        guard case .entry(let entry) = TraceParser.parseLine(bytes, number: Int(line)) else {
            preconditionFailure("a plain line is a line without a problem")
        }
        return entry
    }
}
