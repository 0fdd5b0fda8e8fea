import FuzzCommon
import WebPolicyKit
import WebPolicyRuntime

// The HAR reader, as `simulate` streams a capture: every problem lies inside the file; an
// accepted capture becomes trace entries with parsed URLs, in the file's order; and the
// capture read in pieces of any size, a few entries a block, reads exactly as read whole.

func fuzzHAR(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let file = SourceFile(path: "fuzz.har", text: text(start, count))
    let (trace, problems) = HARReader.read(file)
    for problem in problems {
        Invariant.checkInside(file.location(problem.range), of: file, what: problem.message)
    }
    var previous = 0
    for entry in trace.entries {
        Invariant.check(entry.line >= previous && entry.line <= file.lineCount, "entry at line \(entry.line) after \(previous), of \(file.lineCount)")
        previous = entry.line
    }
    // Cut by reads of 1 to 16 bytes and blocks of 1 to 3 entries, chosen by the input's size.
    let pieces = HARStream(path: "fuzz.har", bytes: Array(file.text.utf8), blockEntries: 1 + count % 3, readSize: 1 + count % 16)
    var cut: [TraceEntry] = []
    while let block = pieces.nextEntries() { cut += block }
    Invariant.check(pieces.problems.map(\.message) == problems.map(\.message) && pieces.problems.map(\.range) == problems.map(\.range),
                    "read in pieces: \(pieces.problems.map(\.message)) against \(problems.map(\.message))")
    Invariant.check(cut.map(\.line) == trace.entries.map(\.line) && cut.map(\.url) == trace.entries.map(\.url) && cut.map { $0.top } == trace.entries.map { $0.top },
                    "read in pieces: \(cut.count) entries against \(trace.entries.count)")
    return 0
}

Fuzzer.run { start, count in fuzzHAR(start, count) }
