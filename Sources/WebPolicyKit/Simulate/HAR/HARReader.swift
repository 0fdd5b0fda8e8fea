import Foundation
import WebPolicyRuntime

/// HAR captures as traces (`HARStream` reads them), and replayed captures recorded as traces.
public enum HARReader {
    /// A capture held in memory, read as `HARStream` reads a file: its entries and problems.
    public static func read(_ file: SourceFile) -> (trace: Trace, problems: [TraceParser.Problem]) {
        let stream = HARStream(path: file.path, bytes: Array(file.text.utf8))
        var trace = Trace(file: file, entries: [])
        while let entries = stream.nextEntries() { trace.entries += entries }
        return (trace, stream.problems)
    }

    /// The replayed entries as a trace file, with their verdicts as expectations.
    public static func traceText(_ results: [RequestResult], policyReference: String?, source: String) -> String {
        var text = "# Recorded from \(source) by webpolicy simulate --record.\n"
        if let policyReference { text += "policy: \(policyReference)\n" }
        var top: CanonicalURL?
        for result in results {
            let entry = result.entry
            var fields = [entry.typeName, entry.url.description]
            if entry.kind == .resource, let entryTop = entry.top, entryTop != top { fields.append("top=\(entryTop)") }
            if let method = entry.method { fields.append("method=\(method)") }
            if let initiator = entry.initiator { fields.append("by=\(initiator.rawValue)") }
            fields.append("expect=\(result.verdict.rawValue)")
            if entry.kind == .page { top = entry.url }
            text += fields.joined(separator: " ") + "\n"
        }
        return text
    }
}
