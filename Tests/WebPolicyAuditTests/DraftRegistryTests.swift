import Foundation
import Testing
@testable import WebPolicyAudit
@testable import WebPolicyKit
import WebPolicyRuntime

/// `init --from-app` and `init` know every section: the draft writes a section from the app's
/// code or names why it leaves it to the team, and the starter policy shows every section. A
/// section added to the registry and forgotten here fails, as does a draft writer dropped
/// from the draft's list.
@Suite("Draft and starter: every section")
struct DraftRegistryTests {
    static let keys = Sections.all.map { $0.key }
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theDraftWritesEverySectionOrSaysWhyNot() {
        let drafted = PolicyDraft.sections.map(\.key)
        #expect(Set(drafted).count == drafted.count, "a section is drafted twice")
        #expect(Set(drafted).isDisjoint(with: PolicyDraft.notDrafted.keys), "a section is both drafted and left out")
        #expect(Set(drafted).union(PolicyDraft.notDrafted.keys) == Set(Self.keys), "the draft neither writes nor explains \(Set(Self.keys).subtracting(drafted).subtracting(PolicyDraft.notDrafted.keys).sorted())")
    }

    /// Each drafted section is written for at least one of the audit's fixture apps: a writer
    /// in the list that no longer writes anything fails here.
    @Test func eachDraftedSectionIsWrittenForAFixtureApp() throws {
        var written: Set<String> = []
        for app in ["home-server", "mixed-app", "objc-legacy", "script-splices", "swift-shop"] {
            let auditor = Auditor(swiftReader: AuditHarness.swiftReader)
            let reading = try auditor.read(paths: [Self.repository.appendingPathComponent("Tests/Fixtures/audit/\(app)/app").path])
            let yaml = PolicyDraft(inventory: reading.inventory, name: app).yaml
            for key in Self.keys where yaml.contains("\n\(key):") { written.insert(key) }
        }
        let drafted = Set(PolicyDraft.sections.map(\.key))
        #expect(drafted.subtracting(written).isEmpty, "no fixture app's draft has \(drafted.subtracting(written).sorted())")
    }

    /// The starter policy `webpolicy init` writes shows every section, each with its comment:
    /// written, or (for a section an app opts into) as a commented example.
    @Test func theStarterPolicyShowsEverySection() {
        let starter = Scaffold.files.first { $0.path == "policies/app.yaml" }?.contents ?? ""
        let missing = Self.keys.filter { !starter.contains("\n\($0):") && !starter.contains("\n# \($0):") }
        #expect(missing.isEmpty, "the starter policy lacks \(missing)")
    }
}
