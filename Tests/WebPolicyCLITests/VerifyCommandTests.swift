import Foundation
import Testing
import TestSupport

/// `webpolicy verify` with real WebKit (WebKitGTK; `.ci/run` installs it before the tests) and
/// without it.
@Suite("verify (the binary)")
struct VerifyCommandTests {
    static let webKitInstalled = FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/girepository-1.0/WebKit2-4.1.typelib")
        || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/girepository-1.0/WebKit2-4.1.typelib")
    static let clean = "webpolicy: 1\nname: shop\ncontent-rules:\n  - action: block\n    url-filter: tracker\\\\.js\n"
    static let refused = #"[{"trigger":{"url-filter":"ads|track"},"action":{"type":"block"}}]"#

    @Test func withoutWebKitItSaysHowToInstallItAndExitsTwo() throws {
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.clean])
        let result = try CommandRunner.run(["verify", "shop.yaml"], in: folder, environment: ["WEBPOLICY_WEBKIT_PYTHON": "/nonexistent/python3"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("webpolicy: error: real WebKit is not available: there is no /nonexistent/python3."))
        #expect(result.stderr.contains("apt-get install gir1.2-webkit2-4.1 python3-gi"))
    }

    @Test(.enabled(if: webKitInstalled)) func aCleanPolicyCompilesInRealWebKit() throws {
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.clean])
        let result = try CommandRunner.run(["verify", "shop.yaml"], in: folder)
        #expect(result.status == 0)
        #expect(result.stdout == """
            shop.yaml -> shop.content-rules.json (1 rule)
              webpolicy: lint finds no error; its WebKit parser compiles it
              WebKit:    compiles it
            1 list, 1 compiled by WebKit, 0 disagreements

            """)
    }

    @Test(.enabled(if: webKitInstalled)) func contentRulesListsAreCompiledEachOnItsOwn() throws {
        let folder = try CommandRunner.makeFolder(["a.json": #"[{"trigger":{"url-filter":"pixel"},"action":{"type":"block"}}]"#, "b.json": Self.refused])
        let result = try CommandRunner.run(["verify", "--content-rules", "a.json", "--content-rules", "b.json"], in: folder)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("a.json -> a.json (1 rule)\n  webpolicy: its WebKit parser compiles it\n  WebKit:    compiles it\nb.json -> b.json (1 rule)\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("2 lists, 1 compiled by WebKit, 0 disagreements\n"), "\(result.stdout)")
        let notAList = try CommandRunner.run(["verify", "--content-rules", "shop.yaml"], in: folder)
        #expect(notAList.status == 2)
    }

    @Test(.enabled(if: webKitInstalled)) func theListsAPolicyReferencesAreCompiledEachOnItsOwn() throws {
        let policy = Self.clean + "content-rule-lists:\n  - path: vendor.json\n"
        let folder = try CommandRunner.makeFolder(["shop.yaml": policy, "vendor.json": #"[{"trigger":{"url-filter":"pixel"},"action":{"type":"block"}}]"#])
        let result = try CommandRunner.run(["verify", "shop.yaml"], in: folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("shop.yaml -> shop.content-rules.vendor.json (1 rule)"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("2 lists, 2 compiled by WebKit, 0 disagreements\n"), "\(result.stdout)")
    }

    /// WebKit compiles into a store folder, and leaves a temporary file behind when it refuses
    /// a list: neither may stay in the user's temporary folder (every run left both).
    @Test(.enabled(if: webKitInstalled)) func verifyLeavesNothingInTheTemporaryFolder() throws {
        let folder = try CommandRunner.makeFolder(["good.json": #"[{"trigger":{"url-filter":"pixel"},"action":{"type":"block"}}]"#, "bad.json": Self.refused])
        let temporary = try TemporaryFolder.make("webpolicy-verify-tmp")
        let result = try CommandRunner.run(["verify", "--content-rules", "good.json", "--content-rules", "bad.json"], in: folder, environment: ["TMPDIR": temporary.path])
        #expect(result.stdout.hasSuffix("2 lists, 1 compiled by WebKit, 0 disagreements\n"), "\(result.stdout)\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    @Test(.enabled(if: webKitInstalled)) func aBareListIsRefusedByBothWithWebKitsMessage() throws {
        let folder = try CommandRunner.makeFolder(["list.json": Self.refused])
        let result = try CommandRunner.run(["verify", "--format", "json", "list.json"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout == #"{"input":"list.json","list":"list.json","rules":1,"lintErrors":null,"webpolicy":"Invalid or unsupported regular expression.","webkit":"Invalid or unsupported regular expression.","agree":true}"# + "\n")
    }
}
