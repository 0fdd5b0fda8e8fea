import WebPolicyKit
import WebPolicyRuntime

/// A trace open in the editor (`.trace`): above each request line, what `simulate` decides for
/// it — the verdict, whether the line's `expect=` holds, and the reason `explain` gives — from
/// the trace's text as it is now, against the policy its `policy:` header names (the policy's
/// open text when it is open, else the file). Its parse problems and a policy that does not
/// load are its diagnostics.
enum TraceLens {
    static func isTrace(_ path: String) -> Bool { path.lowercased().hasSuffix(".trace") }

    /// The command a lens carries: running it shows the line's decision as a message.
    static let command = "webpolicy.simulateLine"

    /// The lenses of the trace, and the problems to publish on it.
    /// `root`: the workspace's folder, which files are named relative to, as `simulate` run
    /// there names them.
    static func lenses(of text: String, path: String, root: String, policyText: (String) -> String?, encoding: PositionEncoding) -> (lenses: [JSONValue], problems: [Diagnostic]) {
        let file = SourceFile(path: path, text: text)
        let (trace, problems) = TraceParser.parse(file)
        var diagnostics = problems.map { Diagnostic(ruleID: "trace", severity: .error, message: $0.message, location: file.location($0.range), hint: $0.hint) }
        guard let policyPath = trace.policyPath else {
            if !trace.entries.isEmpty {
                diagnostics.append(Diagnostic(ruleID: "trace", severity: .info, message: "no 'policy:' header: the editor cannot simulate the lines",
                                              location: SourceLocation(path: path, range: SourceRange(at: SourcePosition(line: 1, column: 1))),
                                              hint: "start the trace with 'policy: FILE' (relative to the trace's folder)"))
            }
            return ([], diagnostics)
        }
        let loaded = policyText(policyPath).map { PolicyLoader().load(text: $0, path: policyPath) } ?? PolicyLoader().load(path: policyPath)
        guard let policy = loaded.policy, !loaded.diagnostics.contains(where: { $0.severity == .error }) else {
            diagnostics.append(Diagnostic(ruleID: "trace", severity: .error, message: "the policy \(policyPath) does not load: lint it for why",
                                          location: SourceLocation(path: path, range: trace.policyRange ?? SourceRange(at: SourcePosition(line: 1, column: 1)))))
            return ([], diagnostics.map { WorkspacePaths.relative($0, root: root) })
        }
        var simulator = Simulator(policy: policy, publicSuffixList: .bundled())
        simulator.parallelism = 1
        let lenses = simulator.run(trace).map { result -> JSONValue in
            let line = result.entry.line
            let mark = !result.hasExpectations ? "" : result.passed ? " ✓" : " ✗ expected \(result.entry.expect?.rawValue ?? "otherwise")"
            let title = WorkspacePaths.shorten("\(result.verdict.rawValue)\(mark) — \(result.reason)", root: root)
            let start = JSONValue.object([("line", .int(line - 1)), ("character", .int(0))])
            return .object([
                ("range", .object([("start", start), ("end", start)])),
                // A lens that shows; running it asks the server nothing.
                ("command", .object([("title", .string(title)), ("command", .string(command)), ("arguments", .array([.int(line), .string(title)]))])),
            ])
        }
        return (lenses, diagnostics.map { WorkspacePaths.relative($0, root: root) })
    }
}
