import FuzzCommon
import WebPolicyKit
import WebPolicyRuntime

// What `webpolicy lint --fix` does with a policy's findings: the human reporter renders them
// (snippets, carets, notes) and the fix applier applies the certain and the unsafe fixes; the
// fixed text loads again, its loader findings inside it. (Linting itself is FuzzPolicy's.)

let linter = Linter(configuration: LintConfiguration(), baseDirectory: Sandbox.emptyFolder)
let loader = PolicyLoader(baseDirectory: Sandbox.emptyFolder)

func fuzzLintFix(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let path = "fuzz.yaml"
    let report = linter.lint(text: text(start, count), path: path)
    guard let file = report.sources[path] else { return 0 }
    _ = HumanReporter.render(report, options: ReporterOptions(colors: false))
    _ = HumanReporter.render(report, options: ReporterOptions(colors: true))

    let fixes = report.diagnostics.compactMap(\.fix)
    guard !fixes.isEmpty else { return 0 }
    let (fixed, applied) = FixApplier.apply(fixes, to: file)
    Invariant.check(applied <= fixes.count, "\(applied) fixes applied of \(fixes.count)")
    let again = loader.load(text: fixed, path: path)
    if let fixedFile = again.files.first(where: { $0.path == path }) { Invariant.checkDiagnostics(again.diagnostics, in: fixedFile) }
    return 0
}

Fuzzer.run { start, count in fuzzLintFix(start, count) }
