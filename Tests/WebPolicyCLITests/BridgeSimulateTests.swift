import Foundation
import Testing

/// `bridges:` in simulate: every fixture of `Tests/Fixtures/simulate/bridges` replayed with
/// `--verbose`, its output — each message line's verdict and the reason that decided it —
/// equal to its golden `.out`; the JSON, coverage and trace-key checks for messages.
@Suite("simulate of script messages (the binary)")
struct BridgeSimulateTests {
    static let folder = CommandRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/simulate/bridges")

    static var traces: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".trace") }.sorted()
    }

    /// Each reason a message is refused, and the one it is admitted with, has a golden.
    @Test func everyReasonHasAFixture() throws {
        let goldens = try Self.traces.map { try String(contentsOf: Self.folder.appendingPathComponent($0.replacingOccurrences(of: ".trace", with: ".out")), encoding: .utf8) }.joined()
        for reason in ["admits it: origin", "does not admit the origin", "admits the main frame only", "is registered in the client world, not page",
                       "no bridge is named", "the page's own scripts do not run", "WebKit hides window.webkit.messageHandlers from every page",
                       "is not in an app-bound domain"] {
            #expect(goldens.contains(reason), "no golden shows '\(reason)'")
        }
    }

    @Test(arguments: traces)
    func verboseOutputMatchesTheGolden(trace: String) throws {
        let result = try CommandRunner.run(["simulate", "--verbose", trace], in: Self.folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let golden = try String(contentsOf: Self.folder.appendingPathComponent(trace.replacingOccurrences(of: ".trace", with: ".out")), encoding: .utf8)
        #expect(result.stdout == golden)
    }

    @Test func aMessageLineInJSONSaysItsHandlerFrameAndWorld() throws {
        let result = try CommandRunner.run(["simulate", "--format", "json", "Worlds.trace"], in: Self.folder)
        let lines = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.filter { $0["url"] != nil }
        let first = try #require(lines.first)
        #expect(first["type"] as? String == "message")
        #expect(first["handler"] as? String == "session")
        #expect(first["frame"] as? String == "main")
        #expect(first["world"] as? String == "client")
        #expect(first["verdict"] as? String == "allow")
        #expect((first["decidedBy"] as? [String: Any])?["id"] as? String == "session")
    }

    @Test func coverageListsTheBridgesAndOriginsNoMessageUsed() throws {
        let policy = """
        webpolicy: 1
        name: c
        bridges:
          - name: cart
            origins: ["*.shop.example.com", pay.example-psp.com]
          - name: session
            origins: ["*.shop.example.com"]
            world: client

        """
        let folder = try CommandRunner.makeFolder(["c.yaml": policy])
        let result = try CommandRunner.run(["simulate", "-", "--policy", "c.yaml", "--coverage"], in: folder,
                                           stdin: "message https://www.shop.example.com/ handler=cart\nmessage https://evil.example/ handler=session world=client\n")
        #expect(result.stdout.contains("coverage of c.yaml: 60.0% of 5"), "\(result.stdout)")
        #expect(result.stdout.contains("  not exercised: bridge origin cart: pay.example-psp.com (c.yaml:5)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  not exercised: bridge origin session: *.shop.example.com (c.yaml:7)\n"), "\(result.stdout)")
        #expect(!result.stdout.contains("not exercised: bridge 'session'"), "a refused message still used the bridge")
    }

    @Test func messageKeysAreCheckedLikeTheOtherKeys() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": "webpolicy: 1\nname: p\nbridges:\n  - name: b\n    origins: [a.example.com]\n"])
        let bad = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml"], in: folder,
                                        stdin: "message https://a.example.com/\nmessage https://a.example.com/ handler=b frame=iframe\nmessage https://a.example.com/ handler=b by=link\nimage https://a.example.com/x.png handler=b\n")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("<stdin>:1:1: error: a message line names its handler: handler=NAME"), "\(bad.stderr)")
        #expect(bad.stderr.contains("<stdin>:2:48: error: on a message line, frame= is main or child, not 'iframe'"), "\(bad.stderr)")
        #expect(bad.stderr.contains("<stdin>:3:42: error: a message line says handler, frame, world, expect, not by="), "\(bad.stderr)")
        #expect(bad.stderr.contains("<stdin>:4:35: error: handler= goes on message lines"), "\(bad.stderr)")
    }
}
