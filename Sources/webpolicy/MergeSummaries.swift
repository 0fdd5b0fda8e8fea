import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

struct MergeSummaries: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-summaries",
        abstract: "Add up the summaries of simulations run on shards of a trace.",
        discussion: """
        Reads JSON Lines — the output of 'webpolicy simulate --format summary' (or --format \
        json, whose request lines it passes over) of each shard — and prints the summary of the \
        whole, as one simulation of the unsplit trace would: traces, requests, passed, failed, \
        requests without expectations, requests by verdict. docs/scale.md shows the recipe with \
        GNU parallel and on a cluster. Exit codes: 0 every expectation holds, 1 one fails, \
        2 input error (a line that is not JSON, or no summary at all).
        """
    )

    @Argument(help: "Files of JSON Lines; - (or nothing) reads standard input.", completion: .file())
    var inputs: [String] = []

    @Option(help: "Output format: json (the summary object, as simulate writes it) or human.")
    var format: SummaryFormat = .json

    enum SummaryFormat: String, CaseIterable, ExpressibleByArgument {
        case json, human
    }

    @Option(help: "Colour in error messages: auto (on a terminal, unless NO_COLOR is set), always, never.")
    var color: ColorChoice = .auto

    func run() throws {
        let outcome = try SummaryMerger.merge(paths: inputs.isEmpty ? ["-"] : inputs)
        if !outcome.problems.isEmpty {
            DiagnosticOptions(color: color).showOnStandardError(LintReport(diagnostics: outcome.problems, sources: outcome.sources, lintedFiles: inputs))
            throw ExitCode(ExitStatus.inputError)
        }
        guard outcome.shards > 0 else { throw InputError("no summary object in the input; run simulate with --format summary") }
        print(format == .json ? outcome.summary.jsonLine : outcome.summary.human, terminator: "")
        if outcome.summary.failed > 0 { throw ExitCode(ExitStatus.findings) }
    }
}
