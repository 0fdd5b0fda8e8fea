import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime
import TestSupport

@Suite("Artefact writer")
struct ArtefactWriterTests {
    func folder() throws -> String {
        let path = TemporaryFolder.location("webpolicy-writer").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func artefact(_ name: String, _ contents: String = "x\n") -> Artefact {
        Artefact(kind: name.contains(".content-rules") ? .contentRules : .manifest, fileName: name, contents: contents)
    }

    @Test func listsANewCompileNoLongerHasAreRemovedAndOtherPoliciesAreLeftAlone() throws {
        let output = try folder()
        try ArtefactWriter.write([artefact("shop.content-rules-1.json"), artefact("shop.content-rules-2.json"), artefact("shop.manifest.json")], to: output, slug: "shop")
        try ArtefactWriter.write([artefact("shop-app.content-rules.json"), artefact("shop-app.manifest.json")], to: output, slug: "shop-app")
        try ArtefactWriter.write([artefact("shop.content-rules.json", "new\n"), artefact("shop.manifest.json", "new\n")], to: output, slug: "shop")
        let names = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(names == ["shop-app.content-rules.json", "shop-app.manifest.json", "shop.content-rules.json", "shop.manifest.json"])
        #expect(try String(contentsOfFile: output + "/shop.manifest.json", encoding: .utf8) == "new\n")
    }

    @Test func temporaryFilesOfAKilledRunAreSweptAndNoneAreLeft() throws {
        let output = try folder()
        try "partial".write(toFile: output + "/.shop.manifest.json.webpolicy-tmp-4242-1", atomically: false, encoding: .utf8)
        try "unrelated".write(toFile: output + "/.keep-me", atomically: false, encoding: .utf8)
        try ArtefactWriter.write([artefact("shop.manifest.json")], to: output, slug: "shop")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == [".keep-me", "shop.manifest.json"])
    }

    @Test func writeFileReplacesAtomicallyAndReportsFailures() throws {
        let output = try folder()
        try ArtefactWriter.writeFile("one\n", to: output + "/policy.yaml")
        try ArtefactWriter.writeFile("two\n", to: output + "/policy.yaml")
        #expect(try String(contentsOfFile: output + "/policy.yaml", encoding: .utf8) == "two\n")
        #expect(throws: InputError.self) { try ArtefactWriter.writeFile("x", to: output + "/missing-folder/policy.yaml") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["policy.yaml"])
    }
}
