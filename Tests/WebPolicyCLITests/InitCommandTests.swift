import Foundation
import Testing

/// `webpolicy init`: a scaffold that lints and simulates clean, and never overwrites silently.
@Suite("init (the binary)")
struct InitCommandTests {
    static let files = ["policies/app.yaml", "policies/app.trace", "policies/webpolicy.schema.json", ".webpolicy.yml", ".pre-commit-config.yaml"]

    @Test func theScaffoldLintsAndSimulatesClean() throws {
        let folder = try CommandRunner.makeFolder([:])
        let result = try CommandRunner.run(["init"], in: folder)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(Self.files.map { "wrote \($0)\n" }.joined()))
        for file in Self.files { #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path)) }
        let lint = try CommandRunner.run(["lint", "--strict", "policies"], in: folder)
        #expect(lint.status == 0)
        #expect(lint.stdout == "no problems in 1 file\n")
        let simulate = try CommandRunner.run(["simulate", "policies"], in: folder)
        #expect(simulate.status == 0)
        #expect(simulate.stdout == "12 passed, 0 failed\n")
    }

    @Test func aSecondInitRefusesAndWritesNothing() throws {
        let folder = try CommandRunner.makeFolder(["policies/app.yaml": "# ours\n"])
        let result = try CommandRunner.run(["init"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == "webpolicy: error: policies/app.yaml already exists; nothing was written (--force replaces them)\n")
        #expect(try String(contentsOf: folder.appendingPathComponent("policies/app.yaml"), encoding: .utf8) == "# ours\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".webpolicy.yml").path))

        let forced = try CommandRunner.run(["init", "--force"], in: folder)
        #expect(forced.status == 0)
        #expect(try String(contentsOf: folder.appendingPathComponent("policies/app.yaml"), encoding: .utf8) != "# ours\n")
    }

    @Test func simulateReportsABrokenPolicyOnceWithItsFileCount() throws {
        let folder = try CommandRunner.makeFolder([:])
        _ = try CommandRunner.run(["init"], in: folder)
        let policy = folder.appendingPathComponent("policies/app.yaml")
        let text = try String(contentsOf: policy, encoding: .utf8).replacingOccurrences(of: "host: legacy.example.com", with: "host: Legacy.example.com")
        try text.write(to: policy, atomically: true, encoding: .utf8)
        try "policy: app.yaml\npage https://app.example.com/ expect=allow\n".write(to: folder.appendingPathComponent("policies/second.trace"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(["simulate", "policies"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.components(separatedBy: "[host-uppercase]").count == 2)
        #expect(result.stderr.hasSuffix("1 error in 1 file\n"))
    }

    @Test func simulateTakesAFolderOfTraces() throws {
        let folder = try CommandRunner.makeFolder([:])
        _ = try CommandRunner.run(["init"], in: folder)
        let empty = try CommandRunner.run(["simulate", "."], in: folder.appendingPathComponent("policies").appendingPathComponent(".."))
        #expect(empty.status == 0)  // the folder walk finds policies/app.trace
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("none"), withIntermediateDirectories: true)
        // A folder with no traces yet — a repository's first day — passes, saying so.
        let none = try CommandRunner.run(["simulate", "none"], in: folder)
        #expect(none.status == 0)
        #expect(none.stderr == "webpolicy: note: none holds no .trace or .har files; nothing was replayed (docs/trace-format.md: write one, or record one from a HAR capture with --record)\n")
        #expect(none.stdout == "0 passed, 0 failed\n")
        let missing = try CommandRunner.run(["simulate", "missing"], in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr == "webpolicy: error: no such file: missing\n")
    }
}
