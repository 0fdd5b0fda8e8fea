import Foundation
import Testing
import TestSupport

/// The HTML pages of simulate, diff and explain against golden files (the lint and audit page
/// is the reporters' golden, `CannedHtmlReporterOutput.txt`); record with WEBPOLICY_RECORD=1.
/// The browser's checks — counts, filters, accessibility — are CI's (`ci/checks/html_reports.py`).
@Suite("HTML reports")
struct HTMLReportTests {
    static var isRecording: Bool { ProcessInfo.processInfo.environment["WEBPOLICY_RECORD"] == "1" }

    static let pages: [(name: String, folder: String, arguments: [String], status: Int32)] = [
        ("simulate", ".", ["simulate", "--format", "html", "--coverage", "policies/https-and-trackers.trace", "policies/webapp-plugin.trace"], 0),
        ("simulate-failing", "Tests/Fixtures/reporters/html", ["simulate", "--format", "html", "failing.trace"], 1),
        ("diff-traffic", "Tests/Fixtures/diff/rule-narrowed", ["diff", "--format", "html", "old.yaml", "new.yaml", "requests.trace"], 1),
        ("diff-policy", "Tests/Fixtures/diff/rule-narrowed", ["diff", "--format", "html", "old.yaml", "new.yaml"], 1),
        ("explain", ".", ["explain", "--format", "html", "--policy", "policies/https-and-trackers.yaml", "--type", "script",
                          "--top", "https://news.example.com/", "https://cdn.tracker.example.net/t.js"], 0),
    ]

    @Test(arguments: pages.map(\.name))
    func pageMatchesItsGoldenFile(name: String) throws {
        let page = try #require(Self.pages.first { $0.name == name })
        let folder = CommandRunner.repositoryRoot.appendingPathComponent(page.folder)
        let result = try CommandRunner.run(page.arguments, in: folder)
        #expect(result.status == page.status, "\(result.stderr)")
        let again = try CommandRunner.run(page.arguments, in: folder)
        #expect(again.stdout == result.stdout, "the page differs between runs")
        let url = CommandRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/reporters/html/\(name).html")
        if Self.isRecording { try result.stdout.write(to: url, atomically: true, encoding: .utf8) }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(result.stdout == expected, "\(name).html differs from its golden file (WEBPOLICY_RECORD=1 to re-record)")
        // Self-contained: nothing the browser would fetch.
        for fetching in [" src=", "<link", "url(", "@import"] {
            #expect(!result.stdout.contains(fetching), "\(name).html would fetch something (\(fetching))")
        }
    }
}
