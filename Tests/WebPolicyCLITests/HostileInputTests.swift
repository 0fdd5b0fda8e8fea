import Foundation
import Testing

/// Inputs that must end with a clear, positioned error and exit code 1 — never a crash, a hang
/// or a stack trace. How fast they end is measured by `webpolicy-bench`, not here.
@Suite("Hostile inputs")
struct HostileInputTests {
    static func billionLaughs() -> String {
        var text = "webpolicy: 1\nname: bomb\nx-0: &l0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n"
        for level in 1...9 {
            text += "x-\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        return text + "content-rules: *l9\n"
    }

    @Test func aliasBombIsRefused() throws {
        let folder = try CommandRunner.makeFolder(["bomb.yaml": Self.billionLaughs()])
        let result = try CommandRunner.run(["lint", "bomb.yaml"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains("[yaml-limits]"))
        #expect(result.stdout.contains("alias bomb"))
    }

    /// A device has no size to check first: an include of /dev/zero (or a list, or the
    /// policy itself) must stop at the size limit, not read forever.
    @Test func aDeviceThatNeverEndsIsRefusedAtTheSizeLimit() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": "webpolicy: 1\nname: p\ninclude: [/dev/zero]\ncontent-rule-lists:\n  - path: /dev/zero\n"])
        let result = try CommandRunner.run(["lint", "p.yaml", "/dev/zero"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains("p.yaml:3:11: error: /dev/zero holds more than 64 MB; files are limited to that [file-unreadable]"), "\(result.stdout)")
        #expect(result.stdout.contains("p.yaml:5:11: error: /dev/zero holds more than 64 MB"), "\(result.stdout)")
        #expect(result.stdout.contains("/dev/zero:1:1: error: /dev/zero holds more than 64 MB"), "\(result.stdout)")
    }

    @Test(arguments: [
        ("binary.yaml", Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x00, 0x00, 0xFF]), "file-binary"),
        ("latin1.yaml", Data("webpolicy: 1\nname: caf".utf8) + Data([0xE9]) + Data("\n".utf8), "file-encoding"),
        ("utf16.yaml", Data([0xFF, 0xFE, 0x77, 0x00]), "file-encoding"),
        ("empty.yaml", Data(), "file-empty"),
        ("blank.yaml", Data("\n   \n".utf8), "file-empty"),
        ("comments.yaml", Data("# nothing yet\n".utf8), "file-empty"),
        ("scalar.yaml", Data("just text\n".utf8), "wrong-type"),
        ("controls.yaml", Data("webpolicy: 1\nname: a\u{7}b\n".utf8), "yaml-syntax"),
    ])
    func brokenFileIsAPositionedError(name: String, bytes: Data, rule: String) throws {
        let folder = try CommandRunner.makeFolder([:])
        try bytes.write(to: folder.appendingPathComponent(name))
        let result = try CommandRunner.run(["lint", "--format", "json", name], in: folder)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("\"rule\": \"\(rule)\""), "\(result.stdout)")
        #expect(result.stdout.contains("\"file\": \"\(name)\""))
        #expect(result.stderr.isEmpty)
    }

    @Test func tenMegabytePolicyLintsClean() throws {
        var text = "webpolicy: 1\nname: large\ncontent-rules:\n"
        var index = 0
        while text.utf8.count < 10 * 1024 * 1024 {
            text += "  - id: block-tracker-\(index)\n    action: block\n    url-filter: '^https?://([^/]+\\.)?tracker-\(index)\\.example\\.net/'\n    resource-type: [script, image]\n    load-type: [third-party]\n"
            index += 1
        }
        let folder = try CommandRunner.makeFolder(["large.yaml": text])
        let result = try CommandRunner.run(["lint", "large.yaml"], in: folder)
        #expect(result.status == 0, "\(result.stdout.prefix(500))")
        #expect(result.stdout == "no problems in 1 file\n")
    }

    /// Each character of a group once copied the group so far (FuzzPolicy found a slow input
    /// with a long group): 100,000 characters would take minutes; now it is one pass.
    @Test func aLongGroupInAURLFilterLints() throws {
        let text = "webpolicy: 1\nname: group\ncontent-rules:\n  - action: block\n    url-filter: \"^https://x/(" + String(repeating: "a", count: 100_000) + ")\"\n"
        let folder = try CommandRunner.makeFolder(["group.yaml": text])
        let result = try CommandRunner.run(["lint", "group.yaml"], in: folder)
        #expect(result.status == 0, "\(result.stdout.prefix(500))")
        #expect(result.stdout == "no problems in 1 file\n")
    }

    @Test func deepNestingIsRefused() throws {
        let depth = 100_000
        let text = "webpolicy: 1\nname: deep\nx-deep: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
        let folder = try CommandRunner.makeFolder(["deep.yaml": text])
        let result = try CommandRunner.run(["lint", "deep.yaml"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains("nests deeper than"))
    }
}
