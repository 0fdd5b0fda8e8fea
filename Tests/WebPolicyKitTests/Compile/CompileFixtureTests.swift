import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// `Tests/Fixtures/compile`: each policy compiles to exactly the artefacts in
/// `expected/<policy>/` (record with WEBPOLICY_RECORD=1). Beyond the fixtures, every example
/// policy and every lint `ok/` fixture compiles without errors, and each list it produces is
/// accepted by the port of WebKit's parser — no list that lint passes is one WebKit refuses.
@Suite("Compile fixtures")
struct CompileFixtureTests {
    static let base = "Tests/Fixtures/compile"

    static var fixtures: [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: Repository.path(base))) ?? []
        return entries.filter { $0.hasSuffix(".yaml") }.sorted()
    }

    static var policiesThatMustCompile: [String] {
        var paths: [String] = []
        for folder in ["policies", "Tests/Fixtures/lint/ok", "Tests/Fixtures/import/ok", base] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: Repository.path(folder))) ?? []
            paths += entries.filter { $0.hasSuffix(".yaml") }.sorted().map { "\(folder)/\($0)" }
        }
        return paths
    }

    @Test(arguments: fixtures)
    func fixtureCompilesToItsExpectedArtefacts(name: String) throws {
        let result = try PolicyCompiler(baseDirectory: Repository.path(Self.base)).compile(path: name)
        #expect(!result.hasErrors, "\(HumanReporter.render(result.report, options: ReporterOptions()))")
        let expectedFolder = "\(Self.base)/expected/\(name.dropLast(".yaml".count))"
        // The text artefacts are goldens; the engine images are binary, and checked by what
        // they decide (the runtime fixtures, EngineImageTests) and by their place beside each list.
        let texts = result.artefacts.filter { $0.kind != .engineImage }
        for artefact in texts {
            Repository.assertGolden(artefact.contents, "\(expectedFolder)/\(artefact.fileName)")
        }
        let expectedNames = (try? FileManager.default.contentsOfDirectory(atPath: Repository.path(expectedFolder))) ?? []
        #expect(expectedNames.sorted() == texts.map(\.fileName).sorted(), "stale files in \(expectedFolder)")
        let images = result.artefacts.filter { $0.kind == .engineImage }.map(\.fileName)
        let lists = result.artefacts.filter { $0.kind == .contentRules }.map(\.fileName)
        #expect(images == lists.map(PolicyCompiler.imageFileName(of:)), "an engine image beside each list")
    }

    @Test(arguments: policiesThatMustCompile)
    func policyCompilesToListsWebKitAccepts(path: String) throws {
        let result = try PolicyCompiler(baseDirectory: Repository.path("")).compile(path: path)
        #expect(!result.hasErrors, "\(HumanReporter.render(result.report, options: ReporterOptions()))")
        for list in result.artefacts where list.kind == .contentRules {
            let parsed = WebKitRuleListParser.parse(list.contents)
            #expect(parsed.issues.isEmpty, "\(list.fileName): \(parsed.issues.map(\.message))")
        }
    }
}

@Suite("Compile checks")
struct CompileCheckTests {
    /// The fragment's `WKAppBoundDomains` is a property-list array of the policy's entries,
    /// in order, and the manifest that carries the navigation rules says version 2.
    @Test func appBoundDomainsReachTheInfoPlistFragment() throws {
        let result = try PolicyCompiler(baseDirectory: Repository.path(CompileFixtureTests.base)).compile(path: "navigation.yaml")
        let plist = try #require(result.artefacts.first { $0.fileName.hasSuffix(".ats.plist") })
        let parsed = try PropertyListSerialization.propertyList(from: Data(plist.contents.utf8), format: nil) as? [String: Any]
        #expect(parsed?["WKAppBoundDomains"] as? [String] == ["shop.example.com", "example-psp.com"])
        let manifest = try #require(result.artefacts.first { $0.fileName.hasSuffix(".manifest.json") })
        let decoded = try Manifest.decode(manifest.contents).get()
        #expect(decoded.version == 2)
        #expect(decoded.navigation?.pages.count == 2)
        #expect(decoded.navigation?.frames.map(\.host.host) == ["www.youtube-nocookie.com"])
        #expect(decoded.appBoundDomains == AppBoundDomains(entries: ["shop.example.com", "example-psp.com"], limitNavigations: true,
                                                            location: decoded.appBoundDomains?.location))
        // A policy that says nothing of navigation keeps a version-1 manifest every runtime reads.
        let plain = try PolicyCompiler(baseDirectory: Repository.path(CompileFixtureTests.base)).compile(path: "host-sugar.yaml")
        #expect(plain.artefacts.first { $0.fileName.hasSuffix(".manifest.json") }?.contents.contains("\"webpolicyManifest\": 1,") == true)
    }

    static let location = SourceLocation(path: "p.yaml", range: SourceRange(at: SourcePosition(line: 1, column: 1)))

    @Test func aListWebKitWouldRefuseIsASelfCheckError() {
        let broken = #"[{"trigger": {"url-filter": "a|b"}, "action": {"type": "block"}}]"#
        let diagnostics = PolicyCompiler.checkList(broken, fileName: "p.content-rules.json", limit: 150_000, sizeWarning: .max, at: Self.location)
        #expect(diagnostics.map(\.ruleID) == ["compile-self-check"])
        #expect(diagnostics.first?.severity == .error)
        #expect(diagnostics.first?.message.contains("Disjunctions are not supported yet.") == true)
    }

    @Test func aLargeListGetsASizeWarning() {
        var compiler = PolicyCompiler()
        compiler.listSizeWarning = 100
        let result = compiler.compile(text: "webpolicy: 1\nname: big\ncontent-rules:\n  - action: block\n    hosts: [a.example, b.example]\n", path: "p.yaml")
        #expect(!result.hasErrors)
        #expect(result.report.diagnostics.map(\.ruleID) == ["compile-list-size"])
        #expect(result.artefacts.count == 4, "a warning still writes the artefacts")
        #expect(PolicyCompiler.checkList("[]", fileName: "x", limit: 1, sizeWarning: 100, at: Self.location).map(\.ruleID) == ["compile-self-check"])
    }
}
