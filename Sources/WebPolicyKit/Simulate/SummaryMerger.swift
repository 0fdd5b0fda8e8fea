import Foundation
import WebPolicyRuntime

/// Adds up the summary objects of simulations run apart — the shards of one trace under GNU
/// `parallel --pipe`, or a cluster's partitions (docs/scale.md) — into the summary of the whole.
/// Reads JSON Lines: `simulate --format summary` output, or `--format json` output, whose
/// request and shared lines it passes over.
public enum SummaryMerger {
    public struct Outcome {
        public var summary: SimulationSummary
        /// How many summary objects were added up.
        public var shards: Int
        /// Lines that are not JSON: input errors, at their line and column.
        public var problems: [Diagnostic]
        public var sources: [String: SourceFile]
    }

    /// `paths` are files, or `-` for standard input.
    public static func merge(paths: [String]) throws(InputError) -> Outcome {
        var outcome = Outcome(summary: SimulationSummary(), shards: 0, problems: [], sources: [:])
        for path in paths {
            let handle: FileHandle
            if path == "-" {
                handle = .standardInput
            } else {
                guard let opened = FileHandle(forReadingAtPath: path) else { throw InputError("no such file: \(path)") }
                handle = opened
            }
            let display = path == "-" ? "<stdin>" : path
            var pending: [UInt8] = []
            var lineNumber = 0
            var problemLines: [Int: String] = [:]
            func take(_ line: ArraySlice<UInt8>) {
                lineNumber += 1
                let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else { return }
                switch JSONDocument.parse(text) {
                case .failure(let error):
                    problemLines[lineNumber] = text
                    outcome.problems.append(Diagnostic(ruleID: "summary", severity: .error, message: "not a JSON line: \(error.message)",
                                                       location: SourceLocation(path: display, range: SourceRange(at: SourcePosition(line: lineNumber, column: error.position.column))),
                                                       hint: "give the output of webpolicy simulate --format summary or --format json"))
                case .success(let node):
                    let value = node.jsonValue
                    if let summary = SimulationSummary(value) {
                        outcome.summary = outcome.summary + summary
                        outcome.shards += 1
                    } else if value.member("summary") != nil {
                        problemLines[lineNumber] = text
                        outcome.problems.append(Diagnostic(ruleID: "summary", severity: .error,
                                                           message: "a summary object holds traces, passed, failed, unchecked and verdicts (allow, block, upgrade, intercept), each a count",
                                                           location: SourceLocation(path: display, range: SourceRange(at: SourcePosition(line: lineNumber, column: 1)))))
                    }
                }
            }
            while let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty {
                pending += data
                var start = pending.startIndex
                while let newline = pending[start...].firstIndex(of: 0x0A) {
                    take(pending[start..<newline])
                    start = newline + 1
                }
                pending.removeSubrange(..<start)
            }
            if !pending.isEmpty { take(pending[...]) }
            if path != "-" { try? handle.close() }
            if !problemLines.isEmpty { outcome.sources[display] = SourceFile(path: display, sparseLines: problemLines) }
        }
        return outcome
    }
}
