import FuzzCommon
import WebPolicyKit
import WebPolicyRuntime

// The policy loader with every lint rule: what `webpolicy lint` does to a file. Every finding
// and note lies inside the file; a policy that loads lowers to content-blocker rules. (What
// `lint` then does with the findings — the human reporter, `--fix` — is FuzzLintFix's.)

/// Relative includes and lists resolve in an empty folder: the input is one file.
let linter = Linter(configuration: LintConfiguration(), baseDirectory: Sandbox.emptyFolder)

func fuzzPolicy(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let path = "fuzz.yaml"
    let (report, policy) = linter.lintLoading(text: text(start, count), path: path)
    guard let file = report.sources[path] else { return 0 }
    Invariant.checkDiagnostics(report.diagnostics, in: file, sources: report.sources)
    if let policy { _ = ContentBlockerLowering.lower(policy) }
    return 0
}

Fuzzer.run { start, count in fuzzPolicy(start, count) }
