import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// actionlint-style fixture folders: every policy in `Tests/Fixtures/lint/ok` must lint clean,
/// and every policy at the top of `Tests/Fixtures/lint/err` must produce exactly the human
/// report in its `.out` file (record with WEBPOLICY_RECORD=1). Files under `support/` are
/// only included by the fixtures.
@Suite("Lint fixtures")
struct LintFixtureTests {
    static let base = Repository.path("Tests/Fixtures/lint")

    static func fixtures(_ folder: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: base + "/" + folder)) ?? []
        return entries.filter { $0.hasSuffix(".yaml") }.sorted().map { "\(folder)/\($0)" }
    }

    @Test func okFolderIsNotEmpty() {
        #expect(Self.fixtures("ok").count >= 4)
        #expect(Self.fixtures("err").count >= 25)
    }

    @Test(arguments: fixtures("ok"))
    func okFixtureLintsClean(path: String) throws {
        let report = try Linter(baseDirectory: Self.base).lint(paths: [path])
        #expect(report.diagnostics.isEmpty, "\(HumanReporter.render(report, options: ReporterOptions()))")
    }

    @Test(arguments: fixtures("err"))
    func errFixtureMatchesItsExpectedOutput(path: String) throws {
        let report = try Linter(baseDirectory: Self.base).lint(paths: [path])
        #expect(!report.diagnostics.isEmpty, "an err fixture must produce diagnostics")
        let output = HumanReporter.render(report, options: ReporterOptions())
        Repository.assertGolden(output, "Tests/Fixtures/lint/" + path.replacingOccurrences(of: ".yaml", with: ".out"))
    }
}

extension LintFixtureTests {
    @Test func everyLoaderCheckHasAnErrFixture() throws {
        let outputs = try FileManager.default.contentsOfDirectory(atPath: Self.base + "/err")
            .filter { $0.hasSuffix(".out") }
            .map { try String(contentsOfFile: Self.base + "/err/" + $0, encoding: .utf8) }
            .joined()
        for check in LoaderCheck.allCases {
            #expect(outputs.contains("[\(check.id)]"), "no err/ fixture shows \(check.id)")
        }
    }
}
