import Foundation
import Testing
import TestSupport

/// `--report FORMAT=PATH` and the GitHub job summary: one run, several reports, each the same as
/// a separate run's.
@Suite("report outputs")
struct ReportOutputsTests {
    static let fixtures = CommandRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/lint")

    @Test func oneLintWritesEveryReportAsSeparateRunsWould() throws {
        let folder = try TemporaryFolder.make("reports")
        let sarif = folder.appendingPathComponent("out/lint.sarif").path
        let junit = folder.appendingPathComponent("out/lint.xml").path
        let quality = folder.appendingPathComponent("out/quality.json").path
        let html = folder.appendingPathComponent("lint.html").path
        let combined = try CommandRunner.run(["lint", "--format", "github", "--report", "sarif=\(sarif)", "--report", "junit=\(junit)",
                                              "--report", "codequality=\(quality)", "--report", "html=\(html)", "err", "ok"], in: Self.fixtures, environment: ["GITHUB_STEP_SUMMARY": ""])
        #expect(combined.status == 1)
        for (format, path) in [("sarif", sarif), ("junit", junit), ("codequality", quality), ("html", html)] {
            let separate = try CommandRunner.run(["lint", "--format", format, "err", "ok"], in: Self.fixtures)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == separate.stdout, "\(format)")
        }
        let github = try CommandRunner.run(["lint", "--format", "github", "err", "ok"], in: Self.fixtures, environment: ["GITHUB_STEP_SUMMARY": ""])
        #expect(combined.stdout == github.stdout)
    }

    @Test func auditWritesReportsToo() throws {
        let folder = try TemporaryFolder.make("audit-reports")
        let sarif = folder.appendingPathComponent("audit.sarif").path
        let app = "Tests/Fixtures/audit/swift-shop"
        let combined = try CommandRunner.run(["audit", "--policy", "\(app)/policy.yaml", "--format", "json", "--report", "sarif=\(sarif)", "\(app)/app"])
        let separate = try CommandRunner.run(["audit", "--policy", "\(app)/policy.yaml", "--format", "sarif", "\(app)/app"])
        #expect(combined.status == 1 && separate.status == 1)
        #expect(try String(contentsOfFile: sarif, encoding: .utf8) == separate.stdout)
        #expect(separate.stdout.contains("\"MASWE-0068\"") && separate.stdout.contains("\"helpUri\""))
    }

    @Test func badReportRequestsAreInputErrors() throws {
        for request in ["sarif", "nosuch=out.txt", "sarif=", "=out.txt"] {
            let result = try CommandRunner.run(["lint", "--report", request, "ok"], in: Self.fixtures)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(request): \(result.stderr)")
        }
        let twice = try CommandRunner.run(["lint", "--report", "sarif=/tmp/x", "--report", "junit=/tmp/x", "ok"], in: Self.fixtures)
        #expect(twice.status == 2 && twice.stderr.contains("twice"))
        let folder = try TemporaryFolder.make("unwritable")
        let missing = folder.appendingPathComponent("no/such/folder/a.sarif").path
        try "".write(toFile: folder.appendingPathComponent("no").path, atomically: true, encoding: .utf8)  // a file where a folder must be
        let unwritable = try CommandRunner.run(["lint", "--report", "sarif=\(missing)", "ok"], in: Self.fixtures)
        #expect(unwritable.status == 2, "\(unwritable.stderr)")
    }

    /// Under GitHub Actions, `--format github` appends the Markdown summary to the job summary
    /// file, after what the step wrote there before; other formats leave it alone.
    @Test func githubFormatAppendsTheJobSummary() throws {
        let folder = try TemporaryFolder.make("job-summary")
        let summary = folder.appendingPathComponent("summary.md").path
        try "## earlier step\n".write(toFile: summary, atomically: true, encoding: .utf8)
        let run = try CommandRunner.run(["lint", "--format", "github", "err/rules-hosts.yaml"], in: Self.fixtures, environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(run.status == 1)
        let markdown = try CommandRunner.run(["lint", "--format", "markdown", "err/rules-hosts.yaml"], in: Self.fixtures)
        let written = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(written == "## earlier step\n" + markdown.stdout)
        #expect(markdown.stdout.hasPrefix("### webpolicy lint: ") && markdown.stdout.contains("| Severity | Rule | Where | Finding |"))
        #expect(markdown.stdout.contains("[`host-uppercase`](https://github.com/webpolicy/webpolicy/blob/v"))
        _ = try CommandRunner.run(["lint", "--format", "json", "err/rules-hosts.yaml"], in: Self.fixtures, environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == written)
    }
}
