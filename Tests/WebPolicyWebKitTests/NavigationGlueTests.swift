import Foundation
import Testing
import WebPolicyRuntime
@testable import WebPolicyWebKit

/// The navigation, window and configuration pieces an app's delegates call, against the
/// compiled example policies (`Tests/Fixtures/runtime`): what the app does with each verdict.
@Suite("Navigation, windows and App-Bound configuration")
struct NavigationGlueTests {
    static let page = "https://hackathon.example.com/attendees"

    @Test func onlyALinkTheUserActivatedLeavesTheApp() throws {
        let opener = RecordingOpener()
        let decider = NavigationDecider(policy: try Fixtures.policy("webapp-plugin"), opener: opener)
        #expect(decider.decide(url: "https://github.com/ada", isMainFrame: true, currentPage: Self.page, initiator: .link) == .cancelAndOpen(url: "https://github.com/ada"))
        for initiator: NavigationInitiator in [.script, .redirect, .form, .backForward, .app] {
            guard case .cancel(let reason) = decider.decide(url: "https://github.com/ada", isMainFrame: true, currentPage: Self.page, initiator: initiator) else {
                Issue.record("\(initiator) left the app"); continue
            }
            #expect(reason.contains("only a link the user activates may leave the app"))
        }
        #expect(opener.opened == ["https://github.com/ada"], "nothing but the link was opened")
        #expect(decider.decide(url: "https://schedule.hackathon.example.com/day-1", isMainFrame: true, currentPage: Self.page, initiator: .script) == .allow)
    }

    @Test func webKitsNavigationTypesMapToWhoStartedIt() {
        // WKNavigationType: linkActivated 0, formSubmitted 1, backForward 2, reload 3, formResubmitted 4, other -1.
        #expect([0, 1, 2, 3, 4, -1].map(NavigationInitiator.init(navigationTypeRawValue:)) == [.link, .form, .backForward, .backForward, .form, .script])
        #expect(NavigationInitiator(navigationTypeRawValue: -1).isUserActivated == false)
    }

    /// WebKit's order for a tapped link to the site's own redirector whose redirect leaves:
    /// decide (link) → didStartProvisionalNavigation → decide (the redirect, still typed
    /// linkActivated) → didFailProvisionalNavigation; the conformance lane sees the same in
    /// WebKitGTK.
    @MainActor @Test func aRedirectAfterATappedLinkIsARedirectNotTheUsersLink() throws {
        let opener = RecordingOpener()
        let decider = NavigationDecider(policy: try Fixtures.policy("webapp-plugin"), opener: opener)
        let linkActivated = 0, other = -1
        let redirector = "https://hackathon.example.com/out?to=phish"
        #expect(decider.redirects.initiator(navigationTypeRawValue: linkActivated, isMainFrame: true) == .link)
        #expect(decider.decide(url: redirector, isMainFrame: true, currentPage: Self.page, initiator: .link) == .allow)
        decider.redirects.navigationStarted()
        let redirect = decider.redirects.initiator(navigationTypeRawValue: linkActivated, isMainFrame: true)
        #expect(redirect == .redirect)
        guard case .cancel(let reason) = decider.decide(url: "https://phish.example.net/login", isMainFrame: true, currentPage: redirector, initiator: redirect) else {
            Issue.record("the redirect of a tapped link left the app"); return
        }
        #expect(reason.contains("a redirect started it"), "\(reason)")
        #expect(opener.opened.isEmpty, "nothing was handed to the system")
        // An iframe's navigation while the page is provisional is the iframe's own.
        #expect(decider.redirects.initiator(navigationTypeRawValue: other, isMainFrame: false) == .script)
        decider.redirects.navigationEnded()
        // Once the navigation failed (or committed), a tap is the user's again.
        #expect(decider.redirects.initiator(navigationTypeRawValue: linkActivated, isMainFrame: true) == .link)
        decider.redirects.navigationStarted()
        decider.redirects.navigationEnded()
        #expect(decider.redirects.initiator(navigationTypeRawValue: other, isMainFrame: true) == .script)
    }

    @Test func anIframeOutsideTheFramesIsCancelledNeverOpened() throws {
        let opener = RecordingOpener()
        let decider = NavigationDecider(policy: try Fixtures.policy("webapp-plugin"), opener: opener)
        guard case .cancel = decider.decide(url: "https://ads.example.net/frame", isMainFrame: false, currentPage: Self.page, initiator: .link) else {
            Issue.record("an iframe outside the frames loaded"); return
        }
        #expect(opener.opened.isEmpty)
    }

    @Test func newWindowsFollowTheirPolicyAndNeverMakeASecondView() throws {
        let opener = RecordingOpener()
        // webapp-plugin: new-windows: open-externally.
        let external = WindowDecider(policy: try Fixtures.policy("webapp-plugin"), opener: opener)
        #expect(external.decide(url: "https://hackathon.example.com/schedule", currentPage: Self.page, initiator: .link) == .openExternally(url: "https://hackathon.example.com/schedule"))
        guard case .refuse = external.decide(url: "https://hackathon.example.com/schedule", currentPage: Self.page, initiator: .script) else {
            Issue.record("a window a script opened was not refused"); return
        }
        #expect(opener.opened == ["https://hackathon.example.com/schedule"])
        // sdk-allowlist: new-windows: block.
        let blocked = WindowDecider(policy: try Fixtures.policy("sdk-allowlist"), opener: opener)
        guard case .refuse(let reason) = blocked.decide(url: "https://miniapp.example.org/terms", currentPage: "https://miniapp.example.org/home") else {
            Issue.record("new-windows: block let a window through"); return
        }
        #expect(reason.contains("new-windows is block"))
        // https-and-trackers says nothing of navigation: the window loads in the same view.
        let plain = WindowDecider(policy: try Fixtures.policy("https-and-trackers"), opener: opener)
        #expect(plain.decide(url: "https://news.example.com/more", currentPage: "https://news.example.com/today") == .loadInSameView(url: "https://news.example.com/more"))
    }

    final class FakeConfiguration: NavigationConfigurable {
        var limitsNavigationsToAppBoundDomains = false
    }

    @Test func theConfigurationStepSetsLimitNavigationsAsThePolicySays() throws {
        let limited = FakeConfiguration()
        try Fixtures.policy("logged-in-webapp").configureNavigation(limited)
        #expect(limited.limitsNavigationsToAppBoundDomains)
        let untouched = FakeConfiguration()
        untouched.limitsNavigationsToAppBoundDomains = true
        try Fixtures.policy("https-and-trackers").configureNavigation(untouched)
        #expect(untouched.limitsNavigationsToAppBoundDomains, "a policy without app-bound-domains leaves the flag to the app")
    }
}
