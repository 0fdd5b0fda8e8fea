import FuzzCommon
import WebPolicyKit
import WebPolicyRuntime

// The HAR reader: every problem lies inside the file; an accepted capture becomes trace
// entries with parsed URLs, in the file's order.


func fuzzHAR(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let file = SourceFile(path: "fuzz.har", text: text(start, count))
    let (trace, problems) = HARReader.read(file)
    for problem in problems {
        Invariant.checkInside(file.location(problem.range), of: file, what: problem.message)
    }
    guard problems.isEmpty else { return 0 }
    var previous = 0
    for entry in trace.entries {
        Invariant.check(entry.line >= previous && entry.line <= file.lineCount, "entry at line \(entry.line) after \(previous), of \(file.lineCount)")
        previous = entry.line
    }
    return 0
}

Fuzzer.run { start, count in fuzzHAR(start, count) }
