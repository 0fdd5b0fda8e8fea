import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// `Tests/Fixtures/import`: every list in `ok/` imports into the policy in its `.yaml` file,
/// with the warnings in its `.out` file, and that policy compiles back to an equivalent list —
/// the same rules in the same order, compared as JSON values. The equivalent is the list itself,
/// or its `.roundtrip.json` when WebKit ignores parts of it. Every list in `err/` is refused
/// with the report in its `.out` file. Record goldens with WEBPOLICY_RECORD=1.
@Suite("Import fixtures")
struct ImportFixtureTests {
    static let base = "Tests/Fixtures/import"

    static func lists(_ folder: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: Repository.path(base + "/" + folder))) ?? []
        return entries.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".roundtrip.json") }.sorted().map { "\(folder)/\($0)" }
    }

    static func read(_ relative: String) throws -> SourceFile {
        SourceFile(path: relative, text: try String(contentsOfFile: Repository.path(base + "/" + relative), encoding: .utf8))
    }

    @Test func foldersHoldEnoughLists() {
        #expect(Self.lists("ok").count >= 5)
        #expect(Self.lists("err").count >= 3)
    }

    @Test(arguments: lists("ok"))
    func okListRoundTrips(path: String) throws {
        let file = try Self.read(path)
        let result = ContentBlockerImporter.importList(file)
        let policy = try #require(result.policyText, "\(HumanReporter.render(result.report, options: ReporterOptions()))")
        let stem = Self.base + "/" + String(path.dropLast(".json".count))
        Repository.assertGolden(policy, stem + ".yaml")
        Repository.assertGolden(HumanReporter.render(result.report, options: ReporterOptions()), stem + ".out")

        let compiled = PolicyCompiler().compile(text: policy, path: "imported.yaml")
        #expect(!compiled.hasErrors, "\(HumanReporter.render(compiled.report, options: ReporterOptions()))")
        let lists = compiled.artefacts.filter { $0.kind == .contentRules }
        let rules = try lists.flatMap { try JSONSerialization.jsonObject(with: Data($0.contents.utf8)) as! [Any] }
        let equivalentPath = FileManager.default.fileExists(atPath: Repository.path(stem + ".roundtrip.json")) ? stem + ".roundtrip.json" : Self.base + "/" + path
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Repository.path(equivalentPath)))) as! [Any]
        #expect(rules.count == expected.count)
        for (index, (actual, wanted)) in zip(rules, expected).enumerated() {
            #expect((actual as! NSDictionary).isEqual(to: wanted as! [AnyHashable: Any]), "rule \(index + 1): compiled \(actual), expected \(wanted)")
        }
    }

    @Test(arguments: lists("err"))
    func errListIsRefused(path: String) throws {
        let result = ContentBlockerImporter.importList(try Self.read(path))
        #expect(result.policyText == nil)
        #expect(result.report.count(.error) > 0)
        Repository.assertGolden(HumanReporter.render(result.report, options: ReporterOptions()), Self.base + "/" + String(path.dropLast(".json".count)) + ".out")
    }

    /// FuzzContentBlockerList's past findings: each list import accepts lowers back to a list
    /// that imports to the same policy (the fuzz target's invariant, here on every test run).
    /// `ignored-flag-sets-target`: a `frame-url-filter-is-case-sensitive` that is an array —
    /// which WebKit ignores and the policy leaves out — set `target.ios: '18.0'`, and the
    /// lowered list then imported as 16.4.
    @Test func pastFuzzFindingsImportTheSameTwice() throws {
        let folder = Repository.path("ci/fuzz/regressions/FuzzContentBlockerList")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names.contains("ignored-flag-sets-target"))
        for name in names {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            let imported = ContentBlockerImporter.importList(SourceFile(path: "list.json", text: String(decoding: bytes, as: UTF8.self)))
            guard let policyText = imported.policyText else { continue }
            let loaded = PolicyLoader().load(text: policyText, path: "imported.yaml")
            let policy = try #require(loaded.policy, "\(name)")
            let lowered = ContentBlockerLowering.lower(policy).map(\.json)
            let again = ContentBlockerImporter.importList(SourceFile(path: "list.json", text: JSONValue.array(lowered).serialized()))
            #expect(again.policyText == policyText, "\(name): the lowered list imports differently")
        }
    }
}
