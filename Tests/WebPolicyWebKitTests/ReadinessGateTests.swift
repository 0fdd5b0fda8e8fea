import Testing
import WebPolicyRuntime
@testable import WebPolicyWebKit

@Suite("Readiness gate")
struct ReadinessGateTests {
    @Test func preparationRunsOnceAndEveryNavigationWaitsForIt() async throws {
        let gate = ReadinessGate<Int>()
        let counter = Counter()
        #expect(await gate.isReady == false)
        async let first = gate.prepare { await counter.increment(); try await Task.sleep(nanoseconds: 20_000_000); return 1 }
        async let second = gate.prepare { await counter.increment(); return 2 }
        let results = try await [first, second]
        #expect(results == [1, 1])
        #expect(await counter.value == 1)
        try await gate.waitUntilReady()
        #expect(await gate.isReady)
    }

    @Test func aFailedPreparationIsRethrownAndCanBeRetried() async throws {
        let gate = ReadinessGate<Int>()
        await #expect(throws: FakeError.self) { try await gate.prepare { throw FakeError(message: "no store") } }
        #expect(await gate.isReady == false)
        #expect(try await gate.prepare { 3 } == 3)
    }

    @Test func preparePolicyAddsTheListsAndWaitsForEveryCookie() async throws {
        let policy = try Fixtures.policy("logged-in-webapp")
        let store = FakeRuleListStore(), target = FakeContentController(), cookies = FakeCookieStore()
        let report = try await preparePolicy(policy, store: store, target: target, cookies: cookies,
                                             values: CookieValues(["SESSION_TOKEN": "s3cret", "APP_LOCALE": "de"]))
        #expect(await target.added == policy.contentRuleLists.map(\.identifier))
        // Only the cookie-store cookie goes to the store; the document-cookie one is a script.
        #expect(await cookies.cookies.map(\.name) == ["session_token"])
        #expect(await cookies.cookies.first?.value == "s3cret")
        #expect(report.cookiesSet == 1)
    }

    @Test func aMissingCookieValueFailsThePreparation() async throws {
        let policy = try Fixtures.policy("logged-in-webapp")
        await #expect(throws: CookieInstallError.missingValue(cookie: "session_token", placeholder: "SESSION_TOKEN")) {
            _ = try await preparePolicy(policy, store: FakeRuleListStore(), target: FakeContentController(), cookies: FakeCookieStore(), values: CookieValues([:]))
        }
    }
}

actor Counter {
    var value = 0
    func increment() { value += 1 }
}
