import Foundation
import Testing

@Suite("webpolicy lint (the binary)")
struct LintCommandTests {
    static let clean = "webpolicy: 1\nname: clean\nhttp-allowlist:\n  - host: www.example.com\n    reason: CMS preview\n"
    static let broken = "webpolicy: 1\nname: broken\nhttp-allowlist:\n  - host: www.Example.com\n    reason: Kiosk firmware.\n"
    static let warned = "webpolicy: 1\nname: warned\nhttp-allowlist:\n  - host: www.example.com.\n    reason: Kiosk firmware.\n"

    @Test func cleanPolicyExitsZero() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.clean])
        let result = try CommandRunner.run(["lint", "p.yaml"], in: folder)
        #expect(result.status == 0)
        #expect(result.stdout == "no problems in 1 file\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func errorsExitOne() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.broken])
        let result = try CommandRunner.run(["lint", "p.yaml"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("p.yaml:4:15: error: "))
    }

    @Test func lintIsTheDefaultSubcommand() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.broken])
        let result = try CommandRunner.run(["p.yaml"], in: folder)
        #expect(result.status == 1)
    }

    @Test func warningsFailOnlyWithStrict() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.warned])
        let relaxed = try CommandRunner.run(["lint", "p.yaml"], in: folder)
        #expect(relaxed.status == 0)
        #expect(relaxed.stdout.contains("warning:"))
        let strict = try CommandRunner.run(["lint", "--strict", "p.yaml"], in: folder)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("error: the http-allowlist host"))
    }

    @Test func missingPathIsAnInputError() throws {
        let folder = try CommandRunner.makeFolder([:])
        let result = try CommandRunner.run(["lint", "nope.yaml"], in: folder)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "webpolicy: error: no such file or directory: nope.yaml\n")
    }

    @Test func usageErrorsExitTwo() throws {
        let unknownFlag = try CommandRunner.run(["lint", "--frobnicate"])
        #expect(unknownFlag.status == 2)
        let badFormat = try CommandRunner.run(["lint", "--format", "xml", "policies"])
        #expect(badFormat.status == 2)
        #expect(badFormat.stderr.contains("xml"))
    }

    @Test func foldersAreSearchedForPolicies() throws {
        let folder = try CommandRunner.makeFolder([
            "policies/a.yaml": Self.clean, "policies/nested/b.yml": Self.broken,
            "policies/.hidden/c.yaml": Self.broken, "policies/notes.txt": "not yaml",
        ])
        let result = try CommandRunner.run(["lint", "--format", "json", "policies"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains("\"file\": \"policies/nested/b.yml\""))
        #expect(result.stdout.contains("\"files\": 2"))
        #expect(!result.stdout.contains(".hidden"))
    }

    @Test(arguments: ["human", "json", "sarif", "github", "junit"])
    func everyFormatRuns(format: String) throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.broken])
        let result = try CommandRunner.run(["lint", "--format", format, "p.yaml"], in: folder)
        #expect(result.status == 1)
        #expect(!result.stdout.isEmpty)
    }

    @Test func configurationIsFoundUpwardAndChangesRules() throws {
        let folder = try CommandRunner.makeFolder([
            ".webpolicy.yml": "rules:\n  host-uppercase: off\n  host-trailing-dot: error\n",
            "sub/dir/p.yaml": Self.broken, "sub/dir/w.yaml": Self.warned,
        ])
        let off = try CommandRunner.run(["lint", "p.yaml"], in: folder.appendingPathComponent("sub/dir"))
        #expect(off.status == 0, "\(off.stdout)")
        let raised = try CommandRunner.run(["lint", "w.yaml"], in: folder.appendingPathComponent("sub/dir"))
        #expect(raised.status == 1)
        #expect(raised.stdout.contains("error: the http-allowlist host 'www.example.com.' ends with a dot"))
        let ignored = try CommandRunner.run(["lint", "--no-config", "p.yaml"], in: folder.appendingPathComponent("sub/dir"))
        #expect(ignored.status == 1)
    }

    @Test func explicitConfigurationAndItsErrors() throws {
        let folder = try CommandRunner.makeFolder([
            "good.yml": "rules:\n  host-uppercase: warning\n",
            "typo.yml": "rules:\n  host-uppercas: off\n",
            "loader.yml": "rules:\n  yaml-syntax: off\n",
            "value.yml": "rules:\n  host-uppercase: loud\n",
            "p.yaml": Self.broken,
        ])
        let good = try CommandRunner.run(["lint", "--config", "good.yml", "p.yaml"], in: folder)
        #expect(good.status == 0)
        #expect(good.stdout.contains("warning:"))
        let typo = try CommandRunner.run(["lint", "--config", "typo.yml", "p.yaml"], in: folder)
        #expect(typo.status == 2)
        #expect(typo.stderr == "webpolicy: error: typo.yml:2:3: unknown rule 'host-uppercas' in the configuration; did you mean 'host-uppercase'? (`webpolicy rules` lists the rule ids)\n")
        let loader = try CommandRunner.run(["lint", "--config", "loader.yml", "p.yaml"], in: folder)
        #expect(loader.status == 2)
        #expect(loader.stderr.contains("loader check"))
        let value = try CommandRunner.run(["lint", "--config", "value.yml", "p.yaml"], in: folder)
        #expect(value.status == 2)
        #expect(value.stderr.contains("value.yml:2:19:"))
        let missing = try CommandRunner.run(["lint", "--config", "nope.yml", "p.yaml"], in: folder)
        #expect(missing.status == 2)
    }

    @Test func colourFollowsTheFlagAndNoColor() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.broken])
        let always = try CommandRunner.run(["lint", "--color", "always", "p.yaml"], in: folder)
        #expect(always.stdout.contains("\u{1B}["))
        // Not a terminal: auto means no colour.
        let auto = try CommandRunner.run(["lint", "p.yaml"], in: folder)
        #expect(!auto.stdout.contains("\u{1B}["))
        let noColor = try CommandRunner.run(["lint", "p.yaml"], in: folder, environment: ["NO_COLOR": "1"])
        #expect(!noColor.stdout.contains("\u{1B}["))
    }

    @Test(arguments: ["human", "json", "sarif", "github", "junit"])
    func outputIsByteIdenticalAcrossRuns(format: String) throws {
        // Files are linted in parallel; the report must not depend on which finishes first.
        let fixtures = CommandRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/lint")
        let first = try CommandRunner.run(["lint", "--format", format, "err", "ok"], in: fixtures)
        let second = try CommandRunner.run(["lint", "--format", format, "err", "ok"], in: fixtures)
        #expect(first.status == 1)
        #expect(first.stdout == second.stdout)
    }

    @Test func versionAndHelp() throws {
        let version = try CommandRunner.run(["--version"])
        #expect(version.status == 0)
        #expect(!version.stdout.isEmpty)
        let help = try CommandRunner.run(["lint", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--strict"))
        // Every command explains itself, in prose without stray escapes.
        for command in ["lint", "compile", "simulate", "merge-summaries", "import", "verify", "rules", "init"] {
            let help = try CommandRunner.run([command, "--help"])
            #expect(help.status == 0, "\(command)")
            #expect(help.stdout.contains("OVERVIEW:") && help.stdout.contains("USAGE:"), "\(command)")
            #expect(!help.stdout.contains("\\\n") && !help.stdout.contains("\\ "), "\(command) help has a stray backslash")
        }
    }

    @Test func rulesCommandListsAndExplains() throws {
        let list = try CommandRunner.run(["rules"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("url-filter-disjunction"))
        let explain = try CommandRunner.run(["rules", "url-filter-disjunction"])
        #expect(explain.stdout.contains("Disjunctions are not supported yet."))
        let unknown = try CommandRunner.run(["rules", "url-filter-disjuntion"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("did you mean 'url-filter-disjunction'?"))
    }
}
