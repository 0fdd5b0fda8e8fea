import Testing
import WebPolicyRuntime
@testable import WebPolicyWebKit

@Suite("Rule-list installer")
struct RuleListInstallerTests {
    @Test func anEmptyStoreCompilesEveryListOnceAndTimesIt() async throws {
        let policy = try Fixtures.policy("https-and-trackers")
        let store = FakeRuleListStore()
        var installer = RuleListInstaller(store: store)
        let clock = Clock()
        installer.now = { clock.tick() }
        let (lists, report) = await installer.install(policy)
        let identifier = policy.contentRuleLists[0].identifier
        #expect(lists == [identifier])
        #expect(report.compiled.map(\.identifier) == [identifier])
        #expect(report.compiled.first?.seconds == 1)
        #expect(report.reused.isEmpty && report.failures.isEmpty && report.removed.isEmpty)
        #expect(await store.compiles == [identifier])
    }

    @Test func aListAlreadyInTheStoreIsNotCompiledAgain() async throws {
        let policy = try Fixtures.policy("https-and-trackers")
        let identifier = policy.contentRuleLists[0].identifier
        let store = FakeRuleListStore(lists: [identifier: "compiled earlier"])
        let (lists, report) = await RuleListInstaller(store: store).install(policy)
        #expect(lists == [identifier])
        #expect(report.reused == [identifier])
        #expect(await store.compiles.isEmpty)
    }

    @Test func aChangedListIsCompiledAndOnlyItsOwnStaleVersionRemoved() async throws {
        let old = try Fixtures.policy("https-and-trackers").contentRuleLists[0].identifier
        let policy = try Fixtures.changedPolicy()
        let new = policy.contentRuleLists[0].identifier
        #expect(new != old && RuleListInstaller<FakeRuleListStore>.listName(of: new) == "https-and-trackers")
        // The app's own vendor list and another policy's list must survive.
        let store = FakeRuleListStore(lists: [old: "old", "vendor-trackers": "v", "other-policy-0123456789abcdef": "o"])
        let (lists, report) = await RuleListInstaller(store: store).install(policy)
        #expect(lists == [new])
        #expect(report.removed == [old])
        #expect(await store.availableIdentifiers() == ["other-policy-0123456789abcdef", new, "vendor-trackers"].sorted())
    }

    @Test func aFailedCompileKeepsTheLastGoodList() async throws {
        let old = try Fixtures.policy("https-and-trackers").contentRuleLists[0].identifier
        let policy = try Fixtures.changedPolicy()
        let new = policy.contentRuleLists[0].identifier
        let store = FakeRuleListStore(lists: [old: "old"])
        await store.failCompiles(of: [new])
        let (lists, report) = await RuleListInstaller(store: store).install(policy)
        #expect(lists == [old], "the web view keeps the rules it had")
        #expect(report.identifiers == [old])
        #expect(report.failures.count == 1)
        #expect(report.failures.first?.keptInstead == old)
        #expect(report.failures.first?.error.contains("Failed to parse") == true)
        #expect(report.removed.isEmpty)
        #expect(await store.availableIdentifiers() == [old])
    }

    @Test func aFailedFirstCompileReportsThatNothingProtectsTheView() async throws {
        let policy = try Fixtures.policy("https-and-trackers")
        let store = FakeRuleListStore()
        await store.failCompiles(of: [policy.contentRuleLists[0].identifier])
        let (lists, report) = await RuleListInstaller(store: store).install(policy)
        #expect(lists.isEmpty)
        #expect(report.failures.first?.keptInstead == nil)
    }

    @Test(arguments: [
        ("app-0123456789abcdef", "app"), ("app-2-0123456789abcdef", "app-2"), ("my-app-fedcba9876543210", "my-app"),
        ("vendor-trackers", nil), ("app-0123456789ABCDEF", nil), ("-0123456789abcdef", nil), ("app", nil),
    ] as [(String, String?)])
    func listNamesComeOnlyFromWebpolicyIdentifiers(identifier: String, name: String?) {
        #expect(RuleListInstaller<FakeRuleListStore>.listName(of: identifier) == name)
    }
}

/// Seconds that advance by one on every reading.
final class Clock: @unchecked Sendable {
    private var value = 0.0
    func tick() -> Double { value += 1; return value }
}
