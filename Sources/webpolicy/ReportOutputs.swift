import ArgumentParser
import Foundation
import WebPolicyKit

/// `--report FORMAT=PATH`: one run, several reports (SARIF for code scanning, JUnit for the
/// test view, Markdown for people) without linting or auditing again for each.
struct ReportRequest: ExpressibleByArgument {
    var format: ReportFormat
    var path: String

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="), let format = ReportFormat(rawValue: String(argument[..<equals])) else { return nil }
        let path = String(argument[argument.index(after: equals)...])
        guard !path.isEmpty else { return nil }
        self.format = format
        self.path = path
    }

    static var defaultCompletionKind: CompletionKind { .file() }
}

struct ReportOutputs: ParsableArguments {
    @Option(name: .customLong("report"), help: ArgumentHelp(
        "Also write a report to a file, as FORMAT=PATH (repeatable): \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")). Example: --report sarif=webpolicy.sarif --report junit=webpolicy.xml.",
        valueName: "format=path"))
    var requests: [ReportRequest] = []

    /// Writes the standard output's report, then each `--report` file (whole or not at all), and
    /// under GitHub Actions with `--format github` the Markdown summary to the job's summary.
    func emit(_ report: LintReport, format: ReportFormat, options: ReporterOptions) throws {
        let paths = requests.map(\.path)
        if let repeated = paths.first(where: { path in paths.filter { $0 == path }.count > 1 }) {
            throw InputError("--report names \(repeated) twice: each report needs a file of its own")
        }
        print(format.reporter.render(report, options: options), terminator: "")
        var fileOptions = options
        fileOptions.colors = false
        for request in requests {
            let folder = (request.path as NSString).deletingLastPathComponent
            if !folder.isEmpty {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    throw InputError("cannot write the report \(request.path): \(folder) cannot be made a folder")
                }
            }
            try ArtefactWriter.writeFile(request.format.reporter.render(report, options: fileOptions), to: request.path)
        }
        if format == .github, let summary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            try JobSummary.append(MarkdownReporter.render(report, options: fileOptions), to: summary)
        }
    }
}

/// GitHub's job summary: a file the step appends Markdown to (GitHub shows every step's on the
/// run's page), so what is there already stays.
enum JobSummary {
    static func append(_ markdown: String, to path: String) throws {
        guard let file = FileHandle(forWritingAtPath: path) ?? (FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil) else {
            throw InputError("cannot write the job summary \(path) (GITHUB_STEP_SUMMARY)")
        }
        defer { try? file.close() }
        do {
            try file.seekToEnd()
            try file.write(contentsOf: Data(markdown.utf8))
        } catch {
            throw InputError("cannot write the job summary \(path) (GITHUB_STEP_SUMMARY): \(error.localizedDescription)")
        }
    }
}
