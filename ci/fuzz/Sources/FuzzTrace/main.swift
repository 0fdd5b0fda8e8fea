import FuzzCommon
import WebPolicyKit
import WebPolicyRuntime

// The trace parser: every problem lies inside the file, every entry names a line of it and
// its URL's range lies on that line; a line parsed alone gives what the whole file gave.


func fuzzTrace(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let file = SourceFile(path: "fuzz.trace", text: text(start, count))
    let (trace, problems) = TraceParser.parse(file)
    for problem in problems {
        Invariant.checkInside(file.location(problem.range), of: file, what: problem.message)
    }
    for entry in trace.entries {
        Invariant.check(entry.line >= 1 && entry.line <= file.lineCount, "an entry at line \(entry.line) of \(file.lineCount)")
        Invariant.checkInside(file.location(entry.urlRange), of: file, what: "the URL of line \(entry.line)")
        Invariant.check(entry.urlRange.start.line == entry.line, "the URL of line \(entry.line) is on line \(entry.urlRange.start.line)")
    }
    return 0
}

Fuzzer.run { start, count in fuzzTrace(start, count) }
