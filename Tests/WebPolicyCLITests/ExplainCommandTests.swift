import Foundation
import Testing

/// `webpolicy explain`: golden outputs for a blocked, an upgraded, an intercepted and an
/// allowed request, a cookie kept back and a scheme refused, of the example policies (`Tests/Fixtures/explain/*.out`; run in
/// `policies/`, so paths read as a user there sees them).
@Suite("explain (the binary)")
struct ExplainCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let cases: [(golden: String, arguments: [String])] = [
        ("blocked", ["--policy", "https-and-trackers.yaml", "https://tracker.example.net/t.js", "--type", "script", "--top", "https://news.example.com/today"]),
        ("upgraded", ["--policy", "https-and-trackers.yaml", "http://news.example.com/today"]),
        ("intercepted", ["--policy", "offline-packages.yaml", "zl-offline://app/index.html"]),
        ("allowed", ["--policy", "logged-in-webapp.yaml", "https://account.example.com/api/me", "--type", "fetch", "--top", "https://account.example.com/profile"]),
        // Each cookie with the one condition that held or failed, at its line.
        ("cookie-not-sent", ["--policy", "logged-in-webapp.yaml", "https://www.example.com/img.png", "--type", "image", "--top", "https://www.example.com/"]),
        // The entry for the scheme, its line, and the limit the URL is outside of.
        ("scheme-refused", ["--policy", "webapp-plugin.yaml", "navidapro://settings/profile", "--type", "page", "--top", "https://hackathon.example.com/attendees"]),
        // Step 0: a script navigation outside navigation.pages, refused with the section's line.
        ("navigation-refused", ["--policy", "webapp-plugin.yaml", "https://github.com/ada", "--type", "page", "--top", "https://hackathon.example.com/attendees", "--by", "script"]),
        // Step 0: a page admitted by its entry, in an app-bound domain, then steps 1 to 4.
        ("navigation-admitted", ["--policy", "logged-in-webapp.yaml", "https://account.example.com/settings", "--type", "page", "--top", "https://account.example.com/profile"]),
        // A script message: the steps WebKit and the bridge take, up to the origin that admits it.
        ("message-admitted", ["--policy", "webapp-plugin.yaml", "--type", "message", "https://hackathon.example.com/attendees", "--handler", "AppInterface"]),
        // An iframe to a main-frame bridge: refused at its frames, with the line.
        ("message-refused", ["--policy", "webapp-plugin.yaml", "--type", "message", "https://hackathon.example.com/embed", "--handler", "AppInterface", "--frame", "child"]),
    ]

    @Test(arguments: cases.map(\.golden))
    func explanationMatchesTheGolden(golden: String) throws {
        let arguments = try #require(Self.cases.first { $0.golden == golden }).arguments
        let result = try CommandRunner.run(["explain"] + arguments, in: Self.repository.appendingPathComponent("policies"))
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try String(contentsOf: Self.repository.appendingPathComponent("Tests/Fixtures/explain/\(golden).out"), encoding: .utf8)
        #expect(result.stdout == expected)
    }

    @Test func badInputIsAnInputError() throws {
        let folder = Self.repository.appendingPathComponent("policies")
        let type = try CommandRunner.run(["explain", "--policy", "https-and-trackers.yaml", "https://a.example/", "--type", "scrip"], in: folder)
        #expect(type.status == 2)
        #expect(type.stderr.hasPrefix("webpolicy: error: unknown request type 'scrip'; one of"))
        let url = try CommandRunner.run(["explain", "--policy", "https-and-trackers.yaml", "http://[::1"], in: folder)
        #expect(url.status == 2)
        #expect(url.stderr.hasPrefix("webpolicy: error: the URL 'http://[::1' is not a URL"))
    }

    @Test func aMessageNeedsItsHandler() throws {
        let folder = Self.repository.appendingPathComponent("policies")
        let missing = try CommandRunner.run(["explain", "--policy", "webapp-plugin.yaml", "--type", "message", "https://hackathon.example.com/"], in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--type message needs --handler NAME"), "\(missing.stderr)")
        let stray = try CommandRunner.run(["explain", "--policy", "webapp-plugin.yaml", "https://hackathon.example.com/", "--handler", "AppInterface"], in: folder)
        #expect(stray.status == 2)
        #expect(stray.stderr.contains("--handler goes with --type message"), "\(stray.stderr)")
    }

    @Test func aPolicyWithLintErrorsIsNotExplained() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": "webpolicy: 1\nname: p\nhttp-alowlist: []\n"])
        let result = try CommandRunner.run(["explain", "--policy", "p.yaml", "https://a.example/"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("p.yaml:3:1: error: unknown key"))
        #expect(result.stdout.isEmpty)
    }
}
