import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// Each reporter against a golden file (`Tests/Fixtures/reporters/Canned*.txt`, record with
/// WEBPOLICY_RECORD=1), over one fixed report that exercises every field: hints, notes with and
/// without places, every severity, a non-ASCII column, a file with no source, a clean file.
@Suite("Reporters")
struct ReporterTests {
    static let demo = SourceFile(path: "policies/demo.yaml", text: """
    webpolicy: 1
    name: démo
    http-allowlist:
      - host: www.Example.com
    content-rules:
      - action: block
        url-filter: "^https?://(ads|track)\\\\.example/"
    description: "café, ça coûte"

    """)

    static let report = LintReport(
        diagnostics: [
            Diagnostic(ruleID: "url-filter-disjunction", severity: .error,
                       message: "the url-filter '^https?://(ads|track)\\.example/' uses '|', but WebKit's url-filters have no alternation",
                       location: SourceLocation(path: "policies/demo.yaml", range: SourceRange(start: SourcePosition(line: 7, column: 32), end: SourcePosition(line: 7, column: 33))),
                       notes: [Diagnostic.Note("WebKit rejects the whole rule list")],
                       hint: "write one rule per alternative, or list hosts under 'hosts:'"),
            Diagnostic(ruleID: "host-uppercase", severity: .error,
                       message: "the http-allowlist host 'www.Example.com' has uppercase letters",
                       location: SourceLocation(path: "policies/demo.yaml", range: SourceRange(start: SourcePosition(line: 4, column: 15), end: SourcePosition(line: 4, column: 16))),
                       hint: "write 'www.example.com'",
                       fix: Fix("write 'www.example.com'", edits: [TextEdit(range: SourceRange(start: SourcePosition(line: 4, column: 11), end: SourcePosition(line: 4, column: 26)), replacement: "www.example.com")])),
            Diagnostic(ruleID: "yaml-duplicate-key", severity: .warning,
                       message: "the key 'description' appears <twice> & \"more\", 100% sure",
                       location: SourceLocation(path: "policies/demo.yaml", range: SourceRange(start: SourcePosition(line: 8, column: 19), end: SourcePosition(line: 8, column: 21))),
                       notes: [Diagnostic.Note("first defined here", at: SourceLocation(path: "policies/demo.yaml", range: SourceRange(at: SourcePosition(line: 2, column: 1))))]),
            Diagnostic(ruleID: "scheme-uppercase", severity: .info,
                       message: "an informational finding, line one\nand line two",
                       location: SourceLocation(path: "policies/other dir/missing,file.yaml", range: SourceRange(at: SourcePosition(line: 3, column: 5)))),
        ],
        sources: ["policies/demo.yaml": demo],
        lintedFiles: ["policies/clean.yaml", "policies/demo.yaml", "policies/other dir/missing,file.yaml"]
    )

    static let options = ReporterOptions(colors: false, toolVersion: "0.0.0-test")

    @Test(arguments: ReportFormat.allCases)
    func reporterMatchesItsGoldenFile(format: ReportFormat) {
        let output = format.reporter.render(Self.report, options: Self.options)
        let name = format.rawValue.prefix(1).uppercased() + format.rawValue.dropFirst()
        Repository.assertGolden(output, "Tests/Fixtures/reporters/Canned\(name)ReporterOutput.txt")
    }

    @Test(arguments: ReportFormat.allCases)
    func reportersArePure(format: ReportFormat) {
        let first = format.reporter.render(Self.report, options: Self.options)
        let second = format.reporter.render(Self.report, options: Self.options)
        #expect(first == second)
    }

    @Test func humanReporterColoursOnlyWhenAsked() {
        let plain = HumanReporter.render(Self.report, options: Self.options)
        #expect(!plain.contains("\u{1B}["))
        let coloured = HumanReporter.render(Self.report, options: ReporterOptions(colors: true, toolVersion: "0"))
        #expect(coloured.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    }

    @Test func jsonAndSARIFAreValidJSON() throws {
        for format in [ReportFormat.json, .sarif] {
            let output = format.reporter.render(Self.report, options: Self.options)
            let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            #expect(object != nil, "\(format) is not a JSON object")
        }
    }

    @Test func jsonShapeIsStable() throws {
        let output = JSONReporter.render(Self.report, options: Self.options)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == Self.report.diagnostics.count)
        for diagnostic in diagnostics {
            #expect(Set(diagnostic.keys) == ["rule", "severity", "message", "file", "line", "column", "endLine", "endColumn", "hint", "notes", "fix"])
        }
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary == ["files": 3, "errors": 2, "warnings": 1, "infos": 1])
    }

    @Test func githubWritesOneAnnotationLinePerDiagnostic() {
        let lines = GitHubReporter.render(Self.report, options: Self.options).split(separator: "\n")
        #expect(lines.count == Self.report.diagnostics.count)
        #expect(lines.allSatisfy { $0.hasPrefix("::error ") || $0.hasPrefix("::warning ") || $0.hasPrefix("::notice ") })
        #expect(lines.last?.contains("file=policies/other dir/missing%2Cfile.yaml") == true)
    }

    @Test func junitIsWellFormedXML() {
        let output = JUnitReporter.render(Self.report, options: Self.options)
        let parser = XMLParser(data: Data(output.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }

    @Test func sarifPointsAtUnicodeColumnsAndEncodesURIs() {
        let output = SARIFReporter.render(Self.report, options: Self.options)
        #expect(output.contains("\"columnKind\": \"unicodeCodePoints\""))
        #expect(output.contains("policies/other%20dir/missing%2Cfile.yaml"))
    }

    /// GitLab follows a finding by its fingerprint: the same finding a line further down (a
    /// line inserted above it) keeps it; two identical findings get two.
    @Test func codeQualityFingerprintsFollowAFindingAcrossLines() throws {
        func fingerprints(_ text: String, lines: [Int]) throws -> [String] {
            let source = SourceFile(path: "p.yaml", text: text)
            let diagnostics = lines.map { line in
                Diagnostic(ruleID: "host-uppercase", severity: .error, message: "the host 'A.example' has uppercase letters",
                           location: SourceLocation(path: "p.yaml", range: SourceRange(at: SourcePosition(line: line, column: 11))))
            }
            let output = CodeQualityReporter.render(LintReport(diagnostics: diagnostics, sources: ["p.yaml": source], lintedFiles: ["p.yaml"]), options: Self.options)
            let issues = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
            return issues.compactMap { $0["fingerprint"] as? String }
        }
        let before = try fingerprints("http-allowlist:\n  - host: A.example\n", lines: [2])
        let after = try fingerprints("# a comment\nhttp-allowlist:\n  - host: A.example\n", lines: [3])
        #expect(before.count == 1 && before == after)
        let twice = try fingerprints("http-allowlist:\n  - host: A.example\n  - host: A.example\n", lines: [2, 3])
        #expect(twice.count == 2 && twice[0] != twice[1] && twice[0] == before[0])
    }
}

