import Foundation
import Testing

/// The command-line side of the SwiftPM plugins: `build-resources` (what WebPolicyBuildPlugin
/// runs) and `init --swiftpm`. The plugins themselves run in ci/checks/swiftpm_plugins.sh.
@Suite("SwiftPM commands (the binary)")
struct SwiftPMCommandTests {
    static let policy = """
    webpolicy: 1
    name: shop app
    target: { ios: "16.0" }
    content-rules:
      - id: trackers
        action: block
        hosts: [tracker.example.net]

    """

    @Test func buildResourcesWritesAFolderPerPolicyAndTheAccessor() throws {
        let folder = try CommandRunner.makeFolder(["Sources/App/shop.webpolicy.yaml": Self.policy, "Sources/App/help-pages.webpolicy.yml": "webpolicy: 1\nname: help\n"])
        let result = try CommandRunner.run(["build-resources", "--output", "out", "--swift", "out/WebPolicies.swift",
                                            "Sources/App/shop.webpolicy.yaml", "Sources/App/help-pages.webpolicy.yml"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "a clean build says nothing")
        let shop = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out/shop").path).sorted()
        #expect(shop == ["shop-app.ats.plist", "shop-app.content-rules.engine", "shop-app.content-rules.json", "shop-app.manifest.json"])
        let help = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out/help-pages").path).sorted()
        #expect(help == ["help.ats.plist", "help.manifest.json"])
        let swift = try String(contentsOf: folder.appendingPathComponent("out/WebPolicies.swift"), encoding: .utf8)
        #expect(swift.contains("static let shop = CompiledWebPolicy("))
        #expect(swift.contains("static let helpPages = CompiledWebPolicy("))
        #expect(swift.contains("static let all: [CompiledWebPolicy] = [helpPages, shop]"))
        #expect(swift.contains(".init(identifier: \"shop-app-"))
    }

    @Test func aPolicyWithErrorsFailsAtItsLineAndWritesNothing() throws {
        let folder = try CommandRunner.makeFolder(["broken.webpolicy.yaml": "webpolicy: 1\nname: x\nhttp-alowlist: []\n"])
        let result = try CommandRunner.run(["build-resources", "--output", "out", "--swift", "out/W.swift", "broken.webpolicy.yaml", "--color", "never"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("broken.webpolicy.yaml:3:1: error: unknown key 'http-alowlist' in the policy; did you mean 'http-allowlist'? [unknown-key]\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func twoPoliciesForOneFolderAreRefused() throws {
        let folder = try CommandRunner.makeFolder(["a/app.webpolicy.yaml": Self.policy, "b/app.webpolicy.yml": Self.policy])
        let result = try CommandRunner.run(["build-resources", "--output", "out", "--swift", "W.swift", "a/app.webpolicy.yaml", "b/app.webpolicy.yml"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == "webpolicy: error: a/app.webpolicy.yaml and b/app.webpolicy.yml would both compile into the resource folder 'app'; rename one\n")
    }

    @Test func aRenamedPolicyLeavesNoSecondManifestBehind() throws {
        let folder = try CommandRunner.makeFolder(["app.webpolicy.yaml": Self.policy])
        let arguments = ["build-resources", "--output", "out", "--swift", "W.swift", "app.webpolicy.yaml"]
        #expect(try CommandRunner.run(arguments, in: folder).status == 0)
        try Self.policy.replacingOccurrences(of: "name: shop app", with: "name: renamed").write(to: folder.appendingPathComponent("app.webpolicy.yaml"), atomically: true, encoding: .utf8)
        #expect(try CommandRunner.run(arguments, in: folder).status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out/app").path).sorted()
        #expect(files == ["renamed.ats.plist", "renamed.content-rules.engine", "renamed.content-rules.json", "renamed.manifest.json"])
    }

    @Test func initWritesAStarterPolicyIntoATargetAndSaysWhatToAdd() throws {
        let folder = try CommandRunner.makeFolder(["Sources/Shop/main.swift": "print(1)\n"])
        let result = try CommandRunner.run(["init", "--swiftpm", "Shop"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote Sources/Shop/app.webpolicy.yaml\nwrote Sources/Shop/app.trace\n"))
        #expect(result.stdout.contains(#"plugins: [.plugin(name: "WebPolicyBuildPlugin", package: "webpolicy")]"#))
        // The products' platforms: without them the package does not resolve.
        #expect(result.stdout.contains("platforms: [.macOS(.v13), .iOS(.v15)],"))
        #expect(result.stdout.contains("swift package webpolicy simulate --target Shop"), "reading needs no permission flag")
        #expect(result.stdout.contains("try RuntimePolicy(compiledDirectory: WebPolicies.app.directory)"))
        let lint = try CommandRunner.run(["lint", "--strict", "Sources/Shop/app.webpolicy.yaml"], in: folder)
        #expect(lint.status == 0, "\(lint.stdout)")
        let simulate = try CommandRunner.run(["simulate", "Sources/Shop/app.trace"], in: folder)
        #expect(simulate.stdout == "12 passed, 0 failed\n", "\(simulate.stdout)\(simulate.stderr)")
        let again = try CommandRunner.run(["init", "--swiftpm", "Shop"], in: folder)
        #expect(again.status == 2)
        #expect(again.stderr.contains("already exist; nothing was written"))
    }

    @Test func initNeedsAnExistingTarget() throws {
        let folder = try CommandRunner.makeFolder(["Package.swift": "// swift-tools-version:6.1\n"])
        let result = try CommandRunner.run(["init", "--swiftpm", "Missing"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Sources/Missing is not a folder"))
    }
}
