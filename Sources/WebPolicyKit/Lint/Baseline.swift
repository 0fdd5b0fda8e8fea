import Foundation
import WebPolicyRuntime

/// A record of accepted findings, so a team can adopt webpolicy on existing policies and fail
/// only on new ones (SwiftLint's `--baseline`, detekt's baseline). A finding is known by its
/// file, rule, message and the text of its source line — not its line number, so edits
/// elsewhere in the file do not revive it — and each recorded finding absorbs one current one.
public struct Baseline: Sendable, Equatable {
    public struct Entry: Sendable, Hashable, Comparable {
        public var path: String
        public var rule: String
        public var message: String
        /// The finding's source line, trimmed.
        public var source: String

        public static func < (left: Entry, right: Entry) -> Bool {
            (left.path, left.rule, left.message, left.source) < (right.path, right.rule, right.message, right.source)
        }
    }

    public var entries: [Entry]

    public init(_ report: LintReport) {
        entries = report.diagnostics.map { Self.entry(for: $0, in: report) }.sorted()
    }

    public init(entries: [Entry]) {
        self.entries = entries.sorted()
    }

    static func entry(for diagnostic: Diagnostic, in report: LintReport) -> Entry {
        let line = report.sources[diagnostic.location.path].map { String($0.line(diagnostic.location.range.start.line)) } ?? ""
        return Entry(path: diagnostic.location.path, rule: diagnostic.ruleID, message: diagnostic.message,
                     source: line.trimmingCharacters(in: .whitespaces))
    }

    /// The report without the findings the baseline records.
    public func filtering(_ report: LintReport) -> LintReport {
        var remaining: [Entry: Int] = [:]
        for entry in entries { remaining[entry, default: 0] += 1 }
        var filtered = report
        filtered.diagnostics = report.diagnostics.filter { diagnostic in
            let entry = Self.entry(for: diagnostic, in: report)
            guard let count = remaining[entry], count > 0 else { return true }
            remaining[entry] = count - 1
            return false
        }
        return filtered
    }

    /// JSON, one finding per line, sorted: diffs of a baseline stay readable.
    public func serialized() -> String {
        let lines = entries.map { entry in
            JSONValue.object([("path", .string(entry.path)), ("rule", .string(entry.rule)), ("message", .string(entry.message)), ("source", .string(entry.source))])
                .serialized(pretty: false)
        }
        return "{\n  \"version\": 1,\n  \"findings\": [\n" + lines.map { "    " + $0 }.joined(separator: ",\n") + (lines.isEmpty ? "" : "\n") + "  ]\n}\n"
    }

    /// Reads a baseline file; problems are input errors (exit code 2) at file:line:col.
    public static func load(path: String) throws(InputError) -> Baseline {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw InputError("cannot read the baseline file \(path) as UTF-8 text")
        }
        let root: JSONNode
        switch JSONDocument.parse(text) {
        case .failure(let error): throw InputError("\(path):\(error.position): \(error.message)")
        case .success(let node): root = node
        }
        func fail(_ node: JSONNode, _ message: String) -> InputError {
            InputError("\(path):\(node.range.start): \(message) (write a baseline with --write-baseline)")
        }
        guard case .object = root.value else { throw fail(root, "a webpolicy baseline is a JSON object") }
        guard let version = root.member("version"), case .number(1) = version.value else {
            throw fail(root.member("version") ?? root, "expected \"version\": 1")
        }
        guard let findings = root.member("findings"), case .array(let items) = findings.value else {
            throw fail(root.member("findings") ?? root, "expected a \"findings\" array")
        }
        var entries: [Entry] = []
        for item in items {
            guard let path = item.member("path")?.string, let rule = item.member("rule")?.string,
                  let message = item.member("message")?.string, let source = item.member("source")?.string else {
                throw fail(item, "a finding needs the strings path, rule, message and source")
            }
            entries.append(Entry(path: path, rule: rule, message: message, source: source))
        }
        return Baseline(entries: entries)
    }
}
