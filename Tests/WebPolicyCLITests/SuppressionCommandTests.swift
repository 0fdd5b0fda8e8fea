import Foundation
import Testing

/// Inline suppressions end to end: what they hide, what they report, and the exit codes.
@Suite("lint suppressions (the binary)")
struct SuppressionCommandTests {
    /// A policy with one error (uppercase host) on line 4 and one warning (no reason) there too.
    static func policy(_ comment: String) -> String {
        "webpolicy: 1\nname: p\nhttp-allowlist:\n\(comment)  - host: www.Example.com\n    reason: Kiosk firmware.\n"
    }

    @Test func aSuppressionWithAReasonHidesTheFinding() throws {
        let text = Self.policy("  # webpolicy:disable-next-line host-uppercase -- the kiosk matches hosts case-sensitively\n")
        let result = try CommandRunner.run(["lint", "p.yaml"], in: CommandRunner.makeFolder(["p.yaml": text]))
        #expect(result.status == 0)
        #expect(result.stdout == "no problems in 1 file\n")
    }

    @Test func aFileSuppressionHidesEveryFindingOfItsRule() throws {
        let text = "# webpolicy:disable host-uppercase -- generated from the kiosk's own list\n" + Self.policy("")
            + "  - host: Other.example.com\n    reason: Kiosk firmware.\n"
        let result = try CommandRunner.run(["lint", "p.yaml"], in: CommandRunner.makeFolder(["p.yaml": text]))
        #expect(result.status == 0)
        #expect(result.stdout == "no problems in 1 file\n")
    }

    @Test func aSuppressionWithoutAReasonIsAnErrorAndHidesNothing() throws {
        let text = Self.policy("  # webpolicy:disable-next-line host-uppercase\n")
        let result = try CommandRunner.run(["lint", "p.yaml"], in: CommandRunner.makeFolder(["p.yaml": text]))
        #expect(result.status == 1)
        #expect(result.stdout.contains("p.yaml:4:3: error: this suppression gives no reason [suppression-invalid]"))
        #expect(result.stdout.contains("[host-uppercase]"))
    }

    @Test func anUnknownRuleIsNamedWithASuggestion() throws {
        let text = Self.policy("  # webpolicy:disable-next-line host-upercase -- typo\n")
        let result = try CommandRunner.run(["lint", "p.yaml"], in: CommandRunner.makeFolder(["p.yaml": text]))
        #expect(result.status == 1)
        #expect(result.stdout.contains("unknown rule 'host-upercase' in a suppression; did you mean 'host-uppercase'? [suppression-invalid]"))
    }

    @Test func aSuppressionThatHidesNothingIsAWarning() throws {
        let text = "webpolicy: 1\nname: p\nhttp-allowlist:\n  # webpolicy:disable-next-line host-uppercase -- fixed since\n  - host: www.example.com\n    reason: Kiosk firmware.\n"
        let folder = try CommandRunner.makeFolder(["p.yaml": text])
        let result = try CommandRunner.run(["lint", "p.yaml"], in: folder)
        #expect(result.status == 0)
        #expect(result.stdout.contains("p.yaml:4:3: warning: this suppression hides nothing: no host-uppercase finding on the next line [suppression-unused]"))
        #expect(try CommandRunner.run(["lint", "--strict", "p.yaml"], in: folder).status == 1)
    }

    @Test func noInlineConfigIgnoresSuppressions() throws {
        let text = Self.policy("  # webpolicy:disable-next-line host-uppercase -- the kiosk matches hosts case-sensitively\n")
        let result = try CommandRunner.run(["lint", "--no-inline-config", "p.yaml"], in: CommandRunner.makeFolder(["p.yaml": text]))
        #expect(result.status == 1)
        #expect(result.stdout.contains("[host-uppercase]"))
        #expect(!result.stdout.contains("suppression"))
    }
}
