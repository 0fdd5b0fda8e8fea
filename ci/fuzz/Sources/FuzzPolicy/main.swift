import FuzzCommon
import WebPolicyKit
import WebPolicyRuntime

// The policy loader with every lint rule, the human reporter and the fix applier: what
// `webpolicy lint --fix` does to a file. Every finding and note lies inside the file; a policy
// that loads lowers to content-blocker rules; the fixed text loads again, its loader findings
// inside it (its lint is the same code as the first lint, which mutations reach directly).

/// Relative includes and lists resolve in an empty folder: the input is one file.
let linter = Linter(configuration: LintConfiguration(), baseDirectory: Sandbox.emptyFolder)
let loader = PolicyLoader(baseDirectory: Sandbox.emptyFolder)


func fuzzPolicy(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let path = "fuzz.yaml"
    let (report, policy) = linter.lintLoading(text: text(start, count), path: path)
    guard let file = report.sources[path] else { return 0 }
    Invariant.checkDiagnostics(report.diagnostics, in: file, sources: report.sources)
    _ = HumanReporter.render(report, options: ReporterOptions(colors: false))
    if let policy { _ = ContentBlockerLowering.lower(policy) }

    let fixes = report.diagnostics.compactMap(\.fix)
    guard !fixes.isEmpty else { return 0 }
    let (fixed, _) = FixApplier.apply(fixes, to: file)
    let again = loader.load(text: fixed, path: path)
    if let fixedFile = again.files.first(where: { $0.path == path }) { Invariant.checkDiagnostics(again.diagnostics, in: fixedFile) }
    return 0
}

Fuzzer.run { start, count in fuzzPolicy(start, count) }
