import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// What every target checks beyond "no crash". A broken invariant aborts, so libFuzzer keeps
/// the input as a crash reproducer and prints the message above its report.
public enum Invariant {
    public static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        guard !condition() else { return }
        FileHandle.standardError.write(Data("invariant broken (\(file):\(line)): \(message())\n".utf8))
        abort()
    }

    /// A position inside the file: an existing line, a column on it or just after its end.
    public static func checkInside(_ location: SourceLocation, of file: SourceFile, what: @autoclosure () -> String) {
        let start = location.range.start, end = location.range.end
        let lineCount = file.lineCount
        check(start.line >= 1 && start.line <= lineCount, "\(what()) at line \(start.line) of a \(lineCount)-line file")
        check(start.column >= 1 && start.column <= file.line(start.line).count + 1,
              "\(what()) at \(start) on a line of \(file.line(start.line).count) characters")
        check(end >= start && end.line <= lineCount, "\(what()) ends at \(end), outside a \(lineCount)-line file or before its start \(start)")
    }

    /// Every diagnostic (and note) in `file` lies inside it; those elsewhere must name a file
    /// the report holds.
    public static func checkDiagnostics(_ diagnostics: [Diagnostic], in file: SourceFile, sources: [String: SourceFile] = [:]) {
        // The message is only spelled out for a broken invariant: most inputs have findings.
        func checkLocation(_ location: SourceLocation, of diagnostic: Diagnostic) {
            if location.path == file.path {
                checkInside(location, of: file, what: "[\(diagnostic.ruleID)] \(diagnostic.message)")
            } else if let other = sources[location.path] {
                checkInside(location, of: other, what: "[\(diagnostic.ruleID)] \(diagnostic.message)")
            }
        }
        for diagnostic in diagnostics {
            checkLocation(diagnostic.location, of: diagnostic)
            for note in diagnostic.notes {
                if let location = note.location { checkLocation(location, of: diagnostic) }
            }
        }
    }
}

/// The input as text, the way the tools read files (invalid UTF-8 repaired: the loaders' own
/// byte checks run on files, which a fuzz input is not).
public func text(_ start: UnsafeRawPointer, _ count: Int) -> String {
    String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
}
