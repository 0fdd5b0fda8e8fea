import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// One build of a policy: what compile writes, simulate and explain decide with, and verify
/// hands to WebKit are the same lists under the same names.
@Suite("One build of a policy")
struct PolicyBuildTests {
    static let policies = ["https-and-trackers.yaml", "logged-in-webapp.yaml", "offline-packages.yaml", "sdk-allowlist.yaml", "webapp-plugin.yaml"]

    @Test(arguments: policies)
    func compileWritesTheBuildsLists(name: String) throws {
        let path = Repository.path("policies/\(name)")
        let policy = try #require(PolicyLoader().load(path: path).policy)
        let build = PolicyBuild(policy)
        let result = try PolicyCompiler().compile(path: path)
        let written = result.artefacts.filter { $0.kind == .contentRules }
        #expect(written.map(\.fileName) == build.lists.map(\.fileName))
        for (artefact, list) in zip(written, build.lists) {
            #expect(artefact.contents == (list.external?.file.text ?? JSONValue.array(list.rules.map(\.json)).serialized()), "\(list.fileName)")
        }
        #expect(result.slug == build.slug)
    }

    @Test(arguments: policies)
    func theEngineHasOneListPerBuiltListAndTheManifestNamesThem(name: String) throws {
        let policy = try #require(PolicyLoader().load(path: Repository.path("policies/\(name)")).policy)
        let build = PolicyBuild(policy)
        let engine = build.engine(publicSuffixList: PublicSuffixList.bundled())
        #expect(engine.lists.count == build.lists.count)
        #expect(engine.rules?.contentRuleLists.map(\.file) == build.lists.map(\.fileName))
    }
}
