import Foundation
import Testing

@Suite("webpolicy import (the binary)")
struct ImportCommandTests {
    static let list = """
    [
      {"trigger": {"url-filter": "^https://ads\\\\.example\\\\.net/", "load-type": ["third-party"]}, "action": {"type": "block"}},
      {"trigger": {"url-filter": "^http://"}, "action": {"type": "make-https"}}
    ]

    """

    @Test func printsThePolicyOnStandardOutput() throws {
        let folder = try CommandRunner.makeFolder(["trackers.json": Self.list])
        let result = try CommandRunner.run(["import", "trackers.json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == """
        # Imported from trackers.json by webpolicy import.
        webpolicy: 1
        name: trackers
        target:
          ios: '15.0'
        content-rules:
          - action: block
            url-filter: '^https://ads\\.example\\.net/'
            load-type: [third-party]
          - action: make-https
            url-filter: '^http://'

        """)
    }

    @Test func importThenCompileGivesTheListBack() throws {
        let folder = try CommandRunner.makeFolder(["trackers.json": Self.list])
        #expect(try CommandRunner.run(["import", "trackers.json", "-o", "trackers.yaml", "--name", "Trackers", "--schema", "../schemas/webpolicy.schema.json"], in: folder).status == 0)
        let policy = try String(contentsOf: folder.appendingPathComponent("trackers.yaml"), encoding: .utf8)
        #expect(policy.hasPrefix("# yaml-language-server: $schema=../schemas/webpolicy.schema.json\n"))
        let compiled = try CommandRunner.run(["compile", "trackers.yaml", "-o", "-"], in: folder)
        #expect(compiled.status == 0)
        let original = try JSONSerialization.jsonObject(with: Data(Self.list.utf8)) as! NSArray
        let roundTripped = try JSONSerialization.jsonObject(with: Data(compiled.stdout.utf8)) as! NSArray
        #expect(original == roundTripped)
    }

    @Test func anExistingOutputNeedsForce() throws {
        let folder = try CommandRunner.makeFolder(["trackers.json": Self.list, "trackers.yaml": "keep me\n"])
        let refused = try CommandRunner.run(["import", "trackers.json", "-o", "trackers.yaml"], in: folder)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--force"))
        #expect(try String(contentsOf: folder.appendingPathComponent("trackers.yaml"), encoding: .utf8) == "keep me\n")
        let forced = try CommandRunner.run(["import", "trackers.json", "-o", "trackers.yaml", "--force"], in: folder)
        #expect(forced.status == 0)
        #expect(forced.stdout == "wrote trackers.yaml (2 content rules)\n")
    }

    @Test func aListWebKitRefusesIsReportedAtItsLineAndColumnAndNothingIsWritten() throws {
        let broken = "[\n  {\"trigger\": {\"url-filter\": \"a|b\"}, \"action\": {\"type\": \"block\"}}\n]\n"
        let folder = try CommandRunner.makeFolder(["broken.json": broken, "syntax.json": "[\n  {\"trigger\": }\n]\n"])
        let refused = try CommandRunner.run(["import", "broken.json", "-o", "broken.yaml"], in: folder)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("broken.json:2:32: error: rule 1: the url-filter is refused by WebKit's url-filter parser"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("broken.yaml").path))
        let syntax = try CommandRunner.run(["import", "syntax.json"], in: folder)
        #expect(syntax.status == 1)
        #expect(syntax.stderr.hasPrefix("syntax.json:2:15: error: "), "\(syntax.stderr)")
        #expect(syntax.stdout.isEmpty)
    }

    @Test func warningsFailWithStrict() throws {
        let list = "[{\"trigger\": {\"url-filter\": \"a\", \"comment\": 1}, \"action\": {\"type\": \"block\"}}]\n"
        let folder = try CommandRunner.makeFolder(["l.json": list])
        let relaxed = try CommandRunner.run(["import", "l.json"], in: folder)
        #expect(relaxed.status == 0)
        #expect(relaxed.stderr.contains("warning: rule 1: WebKit ignores the trigger key 'comment'"))
        #expect(try CommandRunner.run(["import", "--strict", "l.json"], in: folder).status == 1)
    }

    @Test func inputErrorsExitTwo() throws {
        let folder = try CommandRunner.makeFolder(["l.json": Self.list, "sub/x.json": Self.list])
        #expect(try CommandRunner.run(["import", "missing.json"], in: folder).status == 2)
        #expect(try CommandRunner.run(["import", "sub"], in: folder).status == 2)
        #expect(try CommandRunner.run(["import", "l.json", "--target", "ten"], in: folder).status == 2)
        let binary = folder.appendingPathComponent("binary.json")
        try Data([0x5B, 0x00, 0x5D]).write(to: binary)
        let refused = try CommandRunner.run(["import", "binary.json"], in: folder)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("binary file, not a JSON content-blocker list"))
    }
}
