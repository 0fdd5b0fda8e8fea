import Foundation
import Testing

/// `webpolicy diff`: golden outputs for pairs of policies (Tests/Fixtures/diff) — one or more for
/// every section of a policy — in every
/// format, with and without traces; `git:REV:path` sources in a temporary repository; input
/// errors. Record the goldens with WEBPOLICY_RECORD=1.
@Suite("diff (the binary)")
struct DiffCommandTests {
    static let fixtures = CommandRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/diff")
    /// Every folder of the fixtures: a new one is replayed without being listed here.
    static let pairs: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? [])
        .filter { FileManager.default.fileExists(atPath: fixtures.appendingPathComponent($0).appendingPathComponent("old.yaml").path) }.sorted()
    static let formats = ["human", "json", "markdown"]
    static var isRecording: Bool { ProcessInfo.processInfo.environment["WEBPOLICY_RECORD"] == "1" }

    @Test(arguments: pairs, formats)
    func trafficMatchesTheGolden(pair: String, format: String) throws {
        try check(pair: pair, golden: "traffic.\(format).out", arguments: ["old.yaml", "new.yaml", "requests.trace", "--format", format], exitFile: "expected-exit-traffic")
    }

    @Test(arguments: pairs, formats)
    func policiesMatchTheGolden(pair: String, format: String) throws {
        try check(pair: pair, golden: "policy.\(format).out", arguments: ["old.yaml", "new.yaml", "--format", format])
    }

    /// `exitFile`, when the folder has it, overrides `expected-exit`: a setting no request
    /// depends on changes the policy, not the traffic.
    private func check(pair: String, golden: String, arguments: [String], exitFile: String = "expected-exit") throws {
        let folder = Self.fixtures.appendingPathComponent(pair)
        let result = try CommandRunner.run(["diff"] + arguments, in: folder)
        let override = folder.appendingPathComponent(exitFile)
        let exitURL = FileManager.default.fileExists(atPath: override.path) ? override : folder.appendingPathComponent("expected-exit")
        let expectedExit = try String(contentsOf: exitURL, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect("\(result.status)" == expectedExit, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let url = folder.appendingPathComponent(golden)
        if Self.isRecording { try result.stdout.write(to: url, atomically: true, encoding: .utf8) }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(result.stdout == expected, "\(pair)/\(golden) differs (record with WEBPOLICY_RECORD=1)")
    }

    @Test func jsonOutputIsJSON() throws {
        for pair in Self.pairs {
            let result = try CommandRunner.run(["diff", "old.yaml", "new.yaml", "requests.trace", "--format", "json"], in: Self.fixtures.appendingPathComponent(pair))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let groups = try #require(object["groups"] as? [[String: Any]])
            #expect(groups.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == object["changed"] as? Int)
        }
    }

    @Test func limitCapsTheRequestsPerGroup() throws {
        let folder = Self.fixtures.appendingPathComponent("allowlist-removed")
        let result = try CommandRunner.run(["diff", "old.yaml", "new.yaml", "requests.trace", "--limit", "1"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains("    requests.trace:3  page http://legacy.example.com/catalogue  allow → block\n    … and 2 more\n"))
    }

    @Test func aTraceOnStandardInputIsReplayed() throws {
        let folder = Self.fixtures.appendingPathComponent("allowlist-removed")
        let result = try CommandRunner.run(["diff", "old.yaml", "new.yaml", "-"], in: folder, stdin: "image http://legacy.example.com/a.png top=https://portal.example.org/\n")
        #expect(result.status == 1)
        #expect(result.stdout.hasSuffix("1 changed, 0 unchanged\n"))
    }

    // MARK: git:REV:path

    /// A repository with two commits of a policy that includes a file and references a list,
    /// each of which changes between them.
    private func repository() throws -> URL {
        let folder = try CommandRunner.makeFolder([
            "policies/app.yaml": "webpolicy: 1\nname: app\ninclude: [shared/hosts.yaml]\ncontent-rule-lists:\n  - path: lists/vendor.json\n",
            "policies/shared/hosts.yaml": "webpolicy: 1\nname: hosts\nhttp-allowlist:\n  - host: legacy.example.com\n",
            "policies/lists/vendor.json": #"[{"trigger": {"url-filter": "ads\\.example"}, "action": {"type": "block"}}]"# + "\n",
            "policies/requests.trace": "page http://legacy.example.com/\nscript https://ads.example/a.js top=https://shop.example.com/\n",
        ])
        try git(["init", "-q", "-b", "main"], in: folder)
        try git(["add", "-A"], in: folder)
        try git(["commit", "-q", "-m", "first"], in: folder)
        try "webpolicy: 1\nname: hosts\nhttp-allowlist: []\n".write(to: folder.appendingPathComponent("policies/shared/hosts.yaml"), atomically: true, encoding: .utf8)
        try #"[{"trigger": {"url-filter": "tracker\\.example"}, "action": {"type": "block"}}]"#.write(to: folder.appendingPathComponent("policies/lists/vendor.json"), atomically: true, encoding: .utf8)
        return folder
    }

    private func git(_ arguments: [String], in folder: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "user.name=webpolicy", "-c", "user.email=webpolicy@example.com", "-c", "commit.gpgsign=false"] + arguments
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "git \(arguments.joined(separator: " "))")
    }

    @Test func aRevisionIsReadWithItsIncludesAndLists() throws {
        let folder = try repository()
        let traffic = try CommandRunner.run(["diff", "git:HEAD:policies/app.yaml", "policies/app.yaml", "policies/requests.trace"], in: folder)
        #expect(traffic.status == 1, "\(traffic.stderr)")
        #expect(traffic.stdout.contains("allow → block (1 request)\n  was: http-allowlist entry 'legacy.example.com' (policies/shared/hosts.yaml:4)\n"))
        #expect(traffic.stdout.contains("block → allow (1 request)\n  was: content rule #1 (policies/lists/vendor.json:1)\n"))
        #expect(traffic.stdout.hasSuffix("2 changed, 0 unchanged\n"))

        let entries = try CommandRunner.run(["diff", "git:HEAD:policies/app.yaml", "policies/app.yaml"], in: folder)
        #expect(entries.status == 1)
        #expect(entries.stdout.contains("removed http-allowlist entry 'legacy.example.com' (policies/shared/hosts.yaml:4)\n"))
        #expect(entries.stdout.contains("changed content-rule list 'lists/vendor.json' (policies/app.yaml:5 → policies/app.yaml:5)\n    rules: '1, sha256 "))

        // The same revision on both sides, and a path from the working folder (git's `./`).
        let same = try CommandRunner.run(["diff", "git:main:./app.yaml", "git:HEAD:policies/app.yaml", "requests.trace"], in: folder.appendingPathComponent("policies"))
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.hasSuffix("0 changed, 2 unchanged\n"))
    }

    @Test func gitSourceErrorsAreInputErrors() throws {
        let folder = try repository()
        let cases: [(source: String, message: String)] = [
            ("git:nope:policies/app.yaml", "git:nope:policies/app.yaml: git knows no revision 'nope'"),
            ("git:HEAD:policies/gone.yaml", "git:HEAD:policies/gone.yaml: policies/gone.yaml does not exist at HEAD"),
            ("git:HEAD:policies", "git:HEAD:policies: policies is not a file at HEAD"),
            ("git:HEAD", "'git:HEAD' is not git:REV:path"),
        ]
        for (source, message) in cases {
            let result = try CommandRunner.run(["diff", source, "policies/app.yaml"], in: folder)
            #expect(result.status == 2, "\(source)")
            #expect(result.stderr.hasPrefix("webpolicy: error: \(message)"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let outside = try CommandRunner.makeFolder(["p.yaml": "webpolicy: 1\nname: p\n"])
        let noRepository = try CommandRunner.run(["diff", "git:HEAD:p.yaml", "p.yaml"], in: outside)
        #expect(noRepository.status == 2)
        #expect(noRepository.stderr.hasPrefix("webpolicy: error: git:HEAD:p.yaml: not inside a git repository"))
    }

    // MARK: ci/webpolicy-diff.sh, which the CI templates run on pull requests

    @Test func theCIScriptDiffsEveryChangedPolicyOverItsOwnTraces() throws {
        let folder = try CommandRunner.makeFolder([:])
        try FileManager.default.copyItem(at: CommandRunner.repositoryRoot.appendingPathComponent("policies"), to: folder.appendingPathComponent("policies"))
        try git(["init", "-q", "-b", "main"], in: folder)
        try git(["add", "-A"], in: folder)
        try git(["commit", "-q", "-m", "base"], in: folder)
        let script = CommandRunner.repositoryRoot.appendingPathComponent("ci/webpolicy-diff.sh").path
        let environment = ["WEBPOLICY": CommandRunner.executable.path]

        let unchanged = try CommandRunner.runProgram("/bin/bash", [script, "HEAD"], in: folder, environment: environment)
        #expect(unchanged.status == 0, "\(unchanged.stderr)")
        #expect(unchanged.stdout.contains("No policy change changes a request or an entry."))

        // The scheme entry changes, a policy is added and one removed.
        let sdk = folder.appendingPathComponent("policies/sdk-allowlist.yaml")
        let text = try String(contentsOf: sdk, encoding: .utf8)
        try text.replacingOccurrences(of: "  - scheme: mailto\n", with: "  - scheme: sms\n").write(to: sdk, atomically: true, encoding: .utf8)
        try "webpolicy: 1\nname: extra\n".write(to: folder.appendingPathComponent("policies/extra.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("policies/offline-packages.yaml"))

        let changed = try CommandRunner.runProgram("/bin/bash", [script, "HEAD", "policies"], in: folder, environment: environment)
        #expect(changed.status == 1, "\(changed.stderr)")
        #expect(changed.stdout.contains("`git:HEAD:./policies/sdk-allowlist.yaml` → `policies/sdk-allowlist.yaml`, replayed over 1 trace (9 requests): **1 changed**, 8 unchanged."), "\(changed.stdout)")
        #expect(changed.stdout.contains("| `policies/sdk-allowlist.trace:6` `mailto:support@example.com` | document | allow | block |"), "\(changed.stdout)")
        #expect(changed.stdout.contains("- added: `policies/extra.yaml`\n- removed: `policies/offline-packages.yaml`\n"))
        // Only the changed policy is diffed; its report for people goes to standard error.
        #expect(!changed.stdout.contains("https-and-trackers"))
        #expect(changed.stderr.contains("allow → block (1 request)"), "\(changed.stderr)")

        let badBase = try CommandRunner.runProgram("/bin/bash", [script, "no-such-rev"], in: folder, environment: environment)
        #expect(badBase.status == 2)
        #expect(badBase.stderr.contains("git knows no revision 'no-such-rev'"))
    }

    // MARK: input errors

    @Test func aPolicyWithErrorsOrABrokenTraceIsAnInputError() throws {
        let folder = try CommandRunner.makeFolder([
            "good.yaml": "webpolicy: 1\nname: p\n",
            "bad.yaml": "webpolicy: 1\nname: p\nhttp-alowlist: []\n",
            "broken.trace": "page https://a.example/\nimage top=https://a.example/\n",
        ])
        let policy = try CommandRunner.run(["diff", "good.yaml", "bad.yaml"], in: folder)
        #expect(policy.status == 2)
        #expect(policy.stderr.contains("bad.yaml:3:1: error: unknown key"))
        #expect(policy.stderr.contains("webpolicy: error: bad.yaml has errors: fix them (webpolicy lint) before comparing"))
        #expect(policy.stdout.isEmpty)

        let trace = try CommandRunner.run(["diff", "good.yaml", "good.yaml", "broken.trace"], in: folder)
        #expect(trace.status == 2)
        #expect(trace.stderr.contains("broken.trace:2:"))
        #expect(trace.stdout.isEmpty)

        let missing = try CommandRunner.run(["diff", "good.yaml", "gone.yaml"], in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("gone.yaml"))
    }
}
