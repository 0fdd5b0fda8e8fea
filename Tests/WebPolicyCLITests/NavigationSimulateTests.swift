import Foundation
import Testing

/// `navigation:` and App-Bound Domains in simulate: every fixture of
/// `Tests/Fixtures/simulate/navigation` replayed with `--verbose`, its output — each line's
/// verdict and the entry, with its line, that decided it — equal to the golden `.out`.
@Suite("simulate of navigations (the binary)")
struct NavigationSimulateTests {
    static let folder = CommandRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/simulate/navigation")

    static var traces: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".trace") }.sorted()
    }

    @Test func everyCaseHasAFixture() {
        #expect(Self.traces.count >= 8, "\(Self.traces)")
    }

    @Test(arguments: traces)
    func verboseOutputMatchesTheGolden(trace: String) throws {
        let result = try CommandRunner.run(["simulate", "--verbose", trace], in: Self.folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let golden = try String(contentsOf: Self.folder.appendingPathComponent(trace.replacingOccurrences(of: ".trace", with: ".out")), encoding: .utf8)
        #expect(result.stdout == golden)
    }

    @Test func aHandOffIsTrueOnItsJSONLineAndFalseOnEveryOther() throws {
        let result = try CommandRunner.run(["simulate", "--format", "json", "Pages.trace"], in: Self.folder)
        let lines = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.filter { $0["url"] != nil }
        #expect(lines.allSatisfy { $0["handedToSystem"] is Bool })
        #expect(lines.filter { $0["handedToSystem"] as? Bool == true }.map { $0["url"] as? String } == ["https://news.example.org/story", "mailto:help@shop.example.com"])
    }

    @Test func coverageListsThePageFrameAndAppBoundEntriesNoRequestUsed() throws {
        let policy = """
        webpolicy: 1
        name: c
        navigation:
          pages:
            - host: "*.shop.example.com"
            - host: pay.example-psp.com
          frames:
            - host: maps.example.net
        app-bound-domains:
          domains: [shop.example.com, example-psp.com]

        """
        let folder = try CommandRunner.makeFolder(["c.yaml": policy])
        let result = try CommandRunner.run(["simulate", "-", "--policy", "c.yaml", "--coverage"], in: folder, stdin: "page https://www.shop.example.com/\n")
        #expect(result.stdout.contains("coverage of c.yaml: 40.0% of 5"), "\(result.stdout)")
        #expect(result.stdout.contains("  not exercised: navigation.pages entry pay.example-psp.com (c.yaml:6)\n"))
        #expect(result.stdout.contains("  not exercised: navigation.frames entry maps.example.net (c.yaml:8)\n"))
        #expect(result.stdout.contains("  not exercised: app-bound domain example-psp.com (c.yaml:10)\n"))
        #expect(!result.stdout.contains("app-bound domain shop.example.com"))
    }

    @Test func byAndHandoffAreCheckedLikeTheOtherKeys() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": "webpolicy: 1\nname: p\nnavigation:\n  pages:\n    - host: a.example.com\n"])
        let bad = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml"], in: folder, stdin: "page https://a.example.com/ by=scrip\nimage https://a.example.com/x.png by=link\npage https://a.example.com/ handoff=maybe\n")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("<stdin>:1:32: error: 'scrip' is not how a navigation starts (did you mean 'script'?)"), "\(bad.stderr)")
        #expect(bad.stderr.contains("<stdin>:2:35: error: by= says how a navigation started, and 'image' is not a navigation"), "\(bad.stderr)")
        #expect(bad.stderr.contains("'maybe' is neither yes nor no"), "\(bad.stderr)")
        let failing = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml"], in: folder, stdin: "page https://a.example.com/\npage https://b.example.com/ handoff=no\n")
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("  expected the view to keep the URL, but it hands it to the system\n"), "\(failing.stdout)")
    }
}
