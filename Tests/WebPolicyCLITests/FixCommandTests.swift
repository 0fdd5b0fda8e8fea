import Foundation
import Testing

/// `webpolicy lint --fix`: every fixable problem at once, comments and layout kept.
@Suite("lint --fix (the binary)")
struct FixCommandTests {
    static let fixtures = CommandRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/fix")

    static func folderWithFixture() throws -> URL {
        let text = try String(contentsOf: fixtures.appendingPathComponent("every-fix.yaml"), encoding: .utf8)
        return try CommandRunner.makeFolder(["p.yaml": text])
    }

    @Test func everyFixLeavesAPolicyThatLintsCleanWithItsComments() throws {
        let folder = try Self.folderWithFixture()
        let before = try CommandRunner.run(["lint", "p.yaml"], in: folder)
        #expect(before.status == 1)
        let fixed = try CommandRunner.run(["lint", "--fix", "--unsafe-fixes", "p.yaml"], in: folder)
        #expect(fixed.status == 0)
        #expect(fixed.stdout == "no problems in 1 file\n")
        #expect(fixed.stderr == "fixed 16 findings in 1 file\n")
        let text = try String(contentsOf: folder.appendingPathComponent("p.yaml"), encoding: .utf8)
        let expected = try String(contentsOf: Self.fixtures.appendingPathComponent("every-fix.fixed.yaml"), encoding: .utf8)
        #expect(text == expected)
        #expect(try CommandRunner.run(["lint", "p.yaml"], in: folder).stdout == "no problems in 1 file\n")
    }

    @Test func withoutUnsafeFixesTheMeaningChangingOneStays() throws {
        let folder = try Self.folderWithFixture()
        let fixed = try CommandRunner.run(["lint", "--fix", "p.yaml"], in: folder)
        #expect(fixed.status == 0)  // what is left is a warning
        #expect(fixed.stderr == "fixed 15 findings in 1 file\n")
        #expect(fixed.stdout.contains("[host-wildcard-apex]"))
        #expect(fixed.stdout.contains("fix: write 'host: lab.example.com' with 'include-subdomains: true' (webpolicy lint --fix --unsafe-fixes)"))
        #expect(fixed.stdout.hasSuffix("1 warning in 1 file\n"))
    }

    @Test func aCleanPolicyIsNotRewritten() throws {
        let text = "webpolicy: 1\nname: p\n"
        let folder = try CommandRunner.makeFolder(["p.yaml": text])
        let before = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("p.yaml").path)[.modificationDate] as? Date
        let result = try CommandRunner.run(["lint", "--fix", "p.yaml"], in: folder)
        #expect(result.stderr == "fixed 0 findings in 0 files\n")
        let after = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("p.yaml").path)[.modificationDate] as? Date
        #expect(before == after)
    }
}
