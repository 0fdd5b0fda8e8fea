import Foundation
import Testing
import WebPolicyRuntime
@testable import WebPolicyWebKit

@Suite("Navigation decider")
struct NavigationDeciderTests {
    @Test func deepLinksTheSchemeAllowlistAdmitsAreOpenedOutside() throws {
        let opener = RecordingOpener()
        let decider = NavigationDecider(policy: try Fixtures.policy("webapp-plugin"), opener: opener)
        let page = "https://hackathon.example.com/attendees"
        #expect(decider.decide(url: page, isMainFrame: true, currentPage: nil) == .allow)
        #expect(decider.decide(url: "navidapro://healthmagazin/details?article_id=606", isMainFrame: true, currentPage: page)
            == .cancelAndOpen(url: "navidapro://healthmagazin/details?article_id=606"))
        guard case .cancel(let reason) = decider.decide(url: "navidapro://settings/profile", isMainFrame: true, currentPage: page) else {
            Issue.record("navidapro://settings should be cancelled"); return
        }
        #expect(reason.contains("admits only the host healthmagazin, and this URL's host is settings"))
        #expect(opener.opened == ["navidapro://healthmagazin/details?article_id=606"])
    }

    @Test func theFirstNavigationWaitsForThePreparation() async throws {
        let decider = NavigationDecider(policy: try Fixtures.policy("webapp-plugin"), opener: RecordingOpener())
        let gate = ReadinessGate<Int>()
        let order = Order()
        // The navigation is decided once the preparation runs (a signal from inside it, not a
        // sleep: on a loaded machine the task may not have started after a few milliseconds).
        let (started, signal) = AsyncStream<Void>.makeStream()
        let preparation = Task { try await gate.prepare { signal.yield(); try await Task.sleep(nanoseconds: 30_000_000); await order.note("prepared"); return 1 } }
        for await _ in started { break }
        let decision = await decider.decide(url: "https://hackathon.example.com/attendees", isMainFrame: true, currentPage: nil, after: gate)
        await order.note("decided")
        #expect(decision == .allow)
        #expect(await order.events == ["prepared", "decided"])
        _ = try await preparation.value
    }

    @Test func aFailedPreparationCancelsTheNavigation() async throws {
        let decider = NavigationDecider(policy: try Fixtures.policy("webapp-plugin"), opener: RecordingOpener())
        let gate = ReadinessGate<Int>()
        // A navigation that arrives while the preparation runs waits for it, and is cancelled
        // when it fails.
        let (started, signal) = AsyncStream<Void>.makeStream()
        let pending = Task { try await gate.prepare { signal.yield(); try await Task.sleep(nanoseconds: 10_000_000); throw FakeError(message: "still gone") } }
        for await _ in started { break }
        let decision = await decider.decide(url: "https://hackathon.example.com/attendees", isMainFrame: true, currentPage: nil, after: gate)
        #expect(decision == .cancel(reason: "the web view's policy could not be prepared: still gone"))
        _ = try? await pending.value
    }

    @Test func plainHTTPIsCancelledUnlessAllowlisted() throws {
        let decider = NavigationDecider(policy: try Fixtures.policy("sdk-allowlist"), opener: RecordingOpener())
        #expect(decider.decide(url: "http://www.example.com/", isMainFrame: true, currentPage: nil) == .allow)
        #expect(decider.decide(url: "http://other.example.com/", isMainFrame: false, currentPage: "https://www.example.com/") != .allow)
    }

    @Test func theSDKDelegateQuestionsComeFromTheAllowlists() throws {
        let policy = try Fixtures.policy("sdk-allowlist")
        #expect(policy.allowsHTTPRequest("http://www.example.com/a"))
        #expect(policy.allowsHTTPRequest("http://WWW.EXAMPLE.COM/a"))
        #expect(!policy.allowsHTTPRequest("http://example.com/"))
        #expect(policy.allowsHTTPRequest("https://anything.example/"))
        #expect(!policy.allowsHTTPRequest("mailto:a@b.c"))
        #expect(policy.allowsScheme("mailto:a@b.c"))
        #expect(!policy.allowsScheme("tel:123"))
        #expect(!policy.allowsScheme("not a url"))
    }
}

@Suite("Cookie installer")
struct CookieInstallerTests {
    /// A policy with one cookie of each delivery mode, built as the manifest a compile writes.
    static func policy() throws -> RuntimePolicy {
        var manifest = Manifest(policyName: "cookies", targetIOS: "16.0", distribution: "app-store")
        var store = Manifest.Cookie(name: "session", value: "${TOKEN}", domain: "app.example.com")
        store.hostOnly = true
        store.secure = true
        var header = Manifest.Cookie(name: "first", value: "v=${LOCALE}", domain: "example.com")
        header.via = .header
        header.path = "/account"
        var script = Manifest.Cookie(name: "locale", value: "${LOCALE}\"</script>", domain: ".example.com")
        script.via = .documentCookie
        script.sameSite = .lax
        script.maxAge = 3600
        manifest.cookies = [store, header, script]
        return try RuntimePolicy(manifest: Data(manifest.serialized().utf8), contentRuleLists: [])
    }

    static let values = CookieValues(["TOKEN": "t0k", "LOCALE": "de-CH"])

    @Test func placeholdersAreFilledFromTheApp() throws {
        let cookies = try CookieInstaller(policy: Self.policy(), values: Self.values).cookies()
        #expect(cookies.map(\.value) == ["t0k", "v=de-CH", "de-CH\"</script>"])
        #expect(throws: CookieInstallError.missingValue(cookie: "session", placeholder: "TOKEN")) {
            try CookieInstaller(policy: Self.policy(), values: CookieValues([:])).cookies()
        }
    }

    @Test func headerCookiesGoOnTheFirstRequestTheyMatch() throws {
        let installer = CookieInstaller(policy: try Self.policy(), values: Self.values)
        #expect(try installer.firstRequestHeader(for: "https://www.example.com/account/settings") == "first=v=de-CH")
        #expect(try installer.firstRequestHeader(for: "https://www.example.com/other") == nil, "outside the cookie's path")
        #expect(try installer.firstRequestHeader(for: "https://elsewhere.example/account") == nil)
    }

    @Test func documentCookiesBecomeAScriptThatCannotBreakOut() throws {
        let script = try #require(try CookieInstaller(policy: Self.policy(), values: Self.values).documentCookieScript())
        #expect(script == """
        (function () {
          var host = location.hostname;
          if (host === "example.com" || host.endsWith(".example.com")) { document.cookie = "locale=de-CH\\"\\u003c/script>; path=/; domain=example.com; samesite=lax; max-age=3600"; }
        })();

        """)
    }

    @Test func cookieStoreCookiesWaitForTheirCompletion() async throws {
        let store = FakeCookieStore()
        try await CookieInstaller(policy: Self.policy(), values: Self.values).installInStore(store)
        #expect(await store.cookies.map(\.name) == ["session"])
        #expect(await store.cookies.first?.secure == true)
    }

    /// A cookie for `${server}` goes to the host the app bound, and nowhere while it is unbound:
    /// installing again after a rebind sets it on the new host.
    @Test func aRoleCookieIsForTheBoundHostOnly() async throws {
        var manifest = Manifest(policyName: "dashboard", targetIOS: "16.0", distribution: "app-store")
        manifest.runtimeHosts = [RuntimeHost(name: "server", schemes: ["https", "http"])]
        var flag = Manifest.Cookie(name: "companion_app", value: "1", domain: "${server}")
        flag.hostOnly = true
        manifest.cookies = [flag]
        let policy = try RuntimePolicy(manifest: Data(manifest.serialized().utf8), contentRuleLists: [])
        let installer = CookieInstaller(policy: policy, values: Self.values)
        #expect(try installer.cookies().isEmpty)
        policy.bind("server", to: "https://ha.example.com")
        let store = FakeCookieStore()
        try await installer.installInStore(store)
        policy.bind("server", to: "http://homeassistant.local:8123")
        try await installer.installInStore(store)
        #expect(await store.cookies.map(\.domain) == ["ha.example.com", "homeassistant.local"])
        #expect(await store.cookies.allSatisfy(\.hostOnly))
    }
}

actor Order {
    var events: [String] = []
    func note(_ event: String) { events.append(event) }
}
