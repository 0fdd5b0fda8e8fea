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
        #expect(Self.fetchingReferences(in: result.stdout) == [], "\(name).html would fetch something")
    }

    /// Every golden page, the lint and audit one too, requests nothing: no `src`, stylesheet,
    /// `url(` or `@import`, no `<base>`, form action or refresh (the filters' form submits nowhere). An `href` is only ever a link a
    /// reader clicks (`<a>`), and the only pages outside it links to are the rules' documentation.
    @Test func noPageRequestsAnythingFromOutside() throws {
        let folder = CommandRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/reporters")
        var pages = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("html").path)
            .filter { $0.hasSuffix(".html") }.map { "html/" + $0 }
        pages.append("CannedHtmlReporterOutput.txt")
        #expect(pages.count == Self.pages.count + 1)
        var externalLinks = 0
        for page in pages {
            let text = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
            #expect(Self.fetchingReferences(in: text) == [], "\(page)")
            externalLinks += Self.matches(#"<a href="https?://"#, in: text).count
        }
        #expect(externalLinks > 0, "the rules' links are seen")
    }

    /// What in a page would make a browser fetch or go somewhere by itself.
    static func fetchingReferences(in page: String) -> [String] {
        var found: [String] = []
        for pattern in [#"\ssrc\s*="#, #"<link\b"#, #"url\("#, #"@import"#, #"<base\b"#, #"\b(form)?action\s*="#, #"http-equiv"#, #"<(iframe|img|object|embed|video|audio)\b"#] {
            found += matches(pattern, in: page)
        }
        // An href anywhere but on a link, or a link outside the page to anything but the rules.
        for tag in matches(#"<[a-zA-Z]+\b[^>]*\bhref\s*=[^>]*>"#, in: page) {
            guard tag.hasPrefix("<a ") else { found.append(tag); continue }
            let target = matches(#"href="[^"]*""#, in: tag).first ?? ""
            let isInside = target.hasPrefix("href=\"#")
            let isRuleDocumentation = target.hasPrefix("href=\"https://github.com/webpolicy/webpolicy/blob/") && target.contains("/docs/rules.md#")
            if !isInside && !isRuleDocumentation { found.append(tag) }
        }
        return found
    }

    static func matches(_ pattern: String, in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
    }
}
