import Foundation
import Testing

/// `.webpolicy.yml` `exclude` and the `--write-baseline` / `--baseline` pair, end to end.
@Suite("lint baseline and exclude (the binary)")
struct BaselineAndExcludeTests {
    static let bad = "webpolicy: 1\nname: bad\nhttp-allowlist:\n  - host: www.Example.com\n    reason: Kiosk firmware.\n"
    static let good = "webpolicy: 1\nname: good\nhttp-allowlist:\n  - host: www.example.com\n    reason: Kiosk firmware.\n"

    @Test func excludedFilesAreSkippedWhenWalkingButNotWhenNamed() throws {
        let folder = try CommandRunner.makeFolder([
            ".webpolicy.yml": "exclude:\n  - generated\n  - '**/*.draft.yaml'\n",
            "generated/bad.yaml": Self.bad, "team/wip.draft.yaml": Self.bad, "team/good.yaml": Self.good,
        ])
        let walked = try CommandRunner.run(["lint", "."], in: folder)
        #expect(walked.status == 0)
        #expect(walked.stdout == "no problems in 1 file\n")
        // From a subfolder the patterns still count from the configuration's folder.
        let fromTeam = try CommandRunner.run(["lint", "."], in: folder.appendingPathComponent("team"))
        #expect(fromTeam.stdout == "no problems in 1 file\n")
        let named = try CommandRunner.run(["lint", "generated/bad.yaml"], in: folder)
        #expect(named.status == 1)
    }

    @Test func aBadExcludeIsAnInputError() throws {
        let folder = try CommandRunner.makeFolder([".webpolicy.yml": "exclude: generated\n", "p.yaml": Self.good])
        let result = try CommandRunner.run(["lint", "p.yaml"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains(".webpolicy.yml:1:10: 'exclude' must be a list of path patterns"))
    }

    @Test func aBaselineHidesRecordedFindingsAndOnlyThose() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.bad])
        let write = try CommandRunner.run(["lint", "--write-baseline", "baseline.json", "p.yaml"], in: folder)
        #expect(write.status == 0)
        #expect(write.stdout == "recorded 1 finding in baseline.json\n")
        let recorded = try String(contentsOf: folder.appendingPathComponent("baseline.json"), encoding: .utf8)
        #expect(recorded.contains(#""rule":"host-uppercase""#))
        #expect(recorded.contains(#""source":"- host: www.Example.com""#))

        #expect(try CommandRunner.run(["lint", "--baseline", "baseline.json", "p.yaml"], in: folder).stdout == "no problems in 1 file\n")

        // Lines added above move the finding; the baseline still knows it. A new one fails.
        let edited = "# moved down\n" + Self.bad + "  - host: New.example.com\n    reason: Kiosk firmware.\n"
        try edited.write(to: folder.appendingPathComponent("p.yaml"), atomically: true, encoding: .utf8)
        let after = try CommandRunner.run(["lint", "--baseline", "baseline.json", "p.yaml"], in: folder)
        #expect(after.status == 1)
        #expect(after.stdout.contains("'New.example.com' has uppercase letters"))
        #expect(!after.stdout.contains("www.Example.com"))
    }

    @Test func aBrokenBaselineIsAnInputErrorWithItsPosition() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.good, "b.json": "{\n  \"version\": 2,\n  \"findings\": []\n}\n", "c.json": "{\n  \"version\": 1,\n  \"findings\": [\n"])
        let version = try CommandRunner.run(["lint", "--baseline", "b.json", "p.yaml"], in: folder)
        #expect(version.status == 2)
        #expect(version.stderr.contains("b.json:2:14: expected \"version\": 1"))
        let truncated = try CommandRunner.run(["lint", "--baseline", "c.json", "p.yaml"], in: folder)
        #expect(truncated.status == 2)
        #expect(truncated.stderr.contains("c.json:4:1:"))
        #expect(try CommandRunner.run(["lint", "--baseline", "missing.json", "p.yaml"], in: folder).status == 2)
    }
}
