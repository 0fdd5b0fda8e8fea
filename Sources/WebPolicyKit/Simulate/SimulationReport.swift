import Foundation
import WebPolicyRuntime

/// The results of simulating traces, and how to print them.
public struct SimulationReport: Sendable {
    public struct TraceResults: Sendable {
        /// The trace or capture, as shown (`<stdin>` for standard input).
        public var path: String
        /// The policy simulated, as its path, or the bare list's path.
        public var subject: String
        /// Every result, or only the failures when the session kept only those.
        public var results: [RequestResult]
        public var passed = 0
        public var failed = 0
        public var unchecked = 0
        /// Requests by verdict, in `Verdict.allCases` order.
        public var verdicts = [Int](repeating: 0, count: Verdict.allCases.count)

        public init(path: String, subject: String, results: [RequestResult] = []) {
            self.path = path
            self.subject = subject
            self.results = []
            for result in results { add(result, keepingAll: true) }
        }

        /// Lines counted without a result each, which come after those added before.
        mutating func add(_ tally: Tally) {
            for index in verdicts.indices { verdicts[index] += tally.verdicts[index] }
            passed += tally.passed
            failed += tally.failed
            unchecked += tally.unchecked
            results += tally.failures
        }

        mutating func add(_ result: RequestResult, keepingAll: Bool) {
            verdicts[result.verdict.ordinal] += 1
            if !result.hasExpectations { unchecked += 1 } else if result.passed { passed += 1 } else { failed += 1 }
            if keepingAll || !result.passed { results.append(result) }
        }
    }

    public var traces: [TraceResults]

    public init(traces: [TraceResults]) {
        self.traces = traces
    }

    public var all: [RequestResult] { traces.flatMap(\.results) }
    public var passed: Int { traces.reduce(0) { $0 + $1.passed } }
    public var failed: Int { traces.reduce(0) { $0 + $1.failed } }
    public var unchecked: Int { traces.reduce(0) { $0 + $1.unchecked } }

    /// The counts of a run: what `--format summary` prints, what `--format json` ends with,
    /// and what `webpolicy merge-summaries` adds up across the shards of a trace.
    public var summary: SimulationSummary {
        var summary = SimulationSummary()
        summary.traces = traces.count
        summary.passed = passed
        summary.failed = failed
        summary.unchecked = unchecked
        for traceResults in traces {
            for (index, count) in traceResults.verdicts.enumerated() { summary.verdicts[index] += count }
        }
        return summary
    }

    /// Failures with expected, actual and why (all requests with `verbose`), then the counts.
    public func human(verbose: Bool) -> String {
        var output = ""
        for traceResults in traces {
            for result in traceResults.results where verbose || !result.passed {
                let entry = result.entry
                let status = !result.hasExpectations ? "    " : result.passed ? "ok  " : "FAIL"
                output += "\(traceResults.path):\(entry.line): \(status) \(result.verdict.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0))\(entry.typeName) \(entry.shown)\n"
                for failure in result.failures { output += "  \(failure)\n" }
                output += "  why: \(result.reason)\n"
                if result.finalURL != entry.url { output += "  final URL: \(result.finalURL.requestString)\n" }
                if !result.cookies.isEmpty { output += "  cookies: \(result.cookies.joined(separator: ", "))\n" }
                // Made from the rule table on each access: once.
                let hidden = result.hiddenSelectors
                if !hidden.isEmpty { output += "  hidden: \(Self.shownSelectors(hidden))\n" }
            }
        }
        if unchecked > 0 { output += "\(unchecked) request\(unchecked == 1 ? "" : "s") without expectations\n" }
        output += "\(passed) passed, \(failed) failed\n"
        return output
    }

    /// Selectors a human report shows for one request. A real list hides thousands of them on
    /// every page (EasyList's element-hiding rules: 220 KB a request, some one rule's selector
    /// list of hundreds), which would bury the lines around them: the first few, within a
    /// line's width, and how many more; JSON has them all.
    static let shownSelectorLimit = (count: 8, characters: 160)

    static func shownSelectors(_ selectors: [String]) -> String {
        var shown: [String] = []
        var width = 0
        var isCut = false
        for selector in selectors.prefix(shownSelectorLimit.count) {
            let room = shownSelectorLimit.characters - width
            if selector.count > room {
                // A selector too long for what is left: cut, unless others are already shown.
                if shown.isEmpty {
                    shown.append(String(selector.prefix(room)) + "…")
                    isCut = true
                }
                break
            }
            shown.append(selector)
            width += selector.count + 2
        }
        let rest = selectors.count - shown.count
        guard rest > 0 || isCut else { return shown.joined(separator: ", ") }
        return shown.joined(separator: ", ") + (rest > 0 ? " and \(rest) more" : "") + " (--format json lists every selector)"
    }

    /// One JSON object per request, one per line (docs/trace-format.md lists the fields), with
    /// shared records, then the summary.
    public func jsonLines() -> String {
        var writer = SimulationJSONWriter()
        var output = ""
        for traceResults in traces {
            for result in traceResults.results { output += writer.lines(for: result, trace: traceResults.path) }
        }
        return output + summary.jsonLine
    }

    /// JUnit XML: a test suite per trace, a test case per request; with coverage, a suite per
    /// policy with a failing case per item no request exercised.
    public func junit(coverage: [(policy: String, coverage: Coverage)] = []) -> String {
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let coverageTests = coverage.reduce(0) { $0 + $1.coverage.items.count }, coverageFailures = coverage.reduce(0) { $0 + $1.coverage.unexercised.count }
        output += "<testsuites name=\"webpolicy simulate\" tests=\"\(all.count + coverageTests)\" failures=\"\(failed + coverageFailures)\">\n"
        for traceResults in traces {
            let failures = traceResults.results.filter { !$0.passed }.count
            output += "  <testsuite name=\"\(xml(traceResults.path))\" tests=\"\(traceResults.results.count)\" failures=\"\(failures)\">\n"
            let classname = xml(traceResults.path)
            for result in traceResults.results {
                let name = "line \(result.entry.line): \(result.entry.typeName) \(result.entry.shown)"
                output += "    <testcase classname=\"\(classname)\" name=\"\(xml(name))\""
                if result.passed {
                    output += "/>\n"
                } else {
                    output += ">\n      <failure message=\"\(xml(result.failures.joined(separator: "; ")))\">\(xml("why: " + result.reason))</failure>\n    </testcase>\n"
                }
            }
            output += "  </testsuite>\n"
        }
        for (path, measured) in coverage {
            let missing = measured.unexercised
            output += "  <testsuite name=\"coverage of \(xml(path))\" tests=\"\(measured.items.count)\" failures=\"\(missing.count)\">\n"
            for item in missing {
                let name = "\(item.kind.rawValue) \(item.name) (\(item.location.path):\(item.location.start.line))"
                output += "    <testcase classname=\"coverage\" name=\"\(xml(name))\">\n      <failure message=\"no request exercises it\"/>\n    </testcase>\n"
            }
            output += "  </testsuite>\n"
        }
        return output + "</testsuites>\n"
    }

    /// The JUnit reporter's escaping: XML 1.0 text.
    private func xml(_ text: String) -> String {
        JUnitReporter.escape(text)
    }
}

/// Writes actual verdicts into a trace as `expect=` values: an existing `expect=` is replaced,
/// otherwise one is appended after the line's last field; comments, blank lines and order stay.
public enum TraceRecorder {
    public static func record(_ results: [RequestResult], into file: SourceFile) -> String {
        var byLine: [Int: RequestResult] = [:]
        for result in results { byLine[result.entry.line] = result }
        var lines = file.text.components(separatedBy: "\n")
        for (offset, original) in lines.enumerated() {
            guard let result = byLine[offset + 1] else { continue }
            var scalars = Array(original.unicodeScalars)
            let field = Array("expect=\(result.verdict.rawValue)".unicodeScalars)
            if let range = result.entry.expectRange {
                scalars.replaceSubrange((range.start.column - 1)..<(range.end.column - 1), with: field)
            } else {
                let end = min(result.entry.fieldsEnd - 1, scalars.count)
                scalars.insert(contentsOf: [" "] + field, at: end)
            }
            lines[offset] = String(String.UnicodeScalarView(scalars))
        }
        return lines.joined(separator: "\n")
    }
}
