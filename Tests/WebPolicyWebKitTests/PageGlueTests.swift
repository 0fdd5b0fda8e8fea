import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebPolicyRuntime
@testable import WebPolicyWebKit

/// WebKit for SwiftUI's page (iOS 26) under the policy: what its navigation decider, its scheme
/// handlers and its configuration do, decided by the same engine as simulate.
@Suite("WebKit for SwiftUI: the page's decider, scheme handlers and settings")
struct PageGlueTests {
    static let shop = "https://shop.example.com/"

    /// A shop: its pages, new windows as `windows` says, and `webview` as given.
    static func policy(windows: NewWindowPolicy, webView: WebViewSettings? = nil, limit: Bool = false) throws -> RuntimePolicy {
        var manifest = Manifest(policyName: "shop", targetIOS: "26.0", distribution: "app-store")
        manifest.navigation = NavigationRules(pages: [NavigationRules.Entry(host: HostScope(pattern: "shop.example.com"))],
                                              otherwise: .openExternally, newWindows: windows)
        manifest.webView = webView
        if limit { manifest.appBoundDomains = AppBoundDomains(entries: ["shop.example.com"], limitNavigations: true) }
        return try RuntimePolicy(manifest: Data(manifest.serialized().utf8), contentRuleLists: [])
    }

    static let linkActivated = 0, other = -1

    @MainActor @Test func pagesAreDecidedAsForAWebViewWithThePolicysScripts() throws {
        var settings = WebViewSettings()
        settings.javaScript = false
        let opener = RecordingOpener()
        let decider = PageNavigationDecider(policy: try Self.policy(windows: .sameView, webView: settings), opener: opener)
        #expect(decider.decide(url: "https://shop.example.com/cart", target: true, currentPage: Self.shop, navigationTypeRawValue: Self.other)
                == .allow(allowsContentJavaScript: false))
        #expect(decider.decide(url: "https://news.example.org/", target: true, currentPage: Self.shop, navigationTypeRawValue: Self.linkActivated)
                == .cancelAndOpen(url: "https://news.example.org/"))
        guard case .cancel(let reason) = decider.decide(url: "https://news.example.org/", target: true, currentPage: Self.shop, navigationTypeRawValue: Self.other) else {
            Issue.record("a script took the page elsewhere"); return
        }
        #expect(reason.contains("only a link the user activates may leave the app"), "\(reason)")
        #expect(opener.opened == ["https://news.example.org/"])
    }

    /// A page has no new-window hook: `target=_blank` and `window.open` arrive as an action with
    /// no target frame, decided as simulate decides a `popup` line.
    @MainActor @Test func aNewWindowIsAnActionWithoutATargetFrame() throws {
        let sameView = PageNavigationDecider(policy: try Self.policy(windows: .sameView), opener: RecordingOpener())
        #expect(sameView.decide(url: "https://shop.example.com/help", target: nil, currentPage: Self.shop, navigationTypeRawValue: Self.other)
                == .cancelAndLoad(url: "https://shop.example.com/help"))

        let opener = RecordingOpener()
        let external = PageNavigationDecider(policy: try Self.policy(windows: .openExternally), opener: opener)
        #expect(external.decide(url: "https://partner.example.net/", target: nil, currentPage: Self.shop, navigationTypeRawValue: Self.linkActivated)
                == .cancelAndOpen(url: "https://partner.example.net/"))
        guard case .cancel = external.decide(url: "https://partner.example.net/", target: nil, currentPage: Self.shop, navigationTypeRawValue: Self.other) else {
            Issue.record("a script's window.open was opened outside"); return
        }
        #expect(opener.opened == ["https://partner.example.net/"])

        let blocked = PageNavigationDecider(policy: try Self.policy(windows: .block), opener: RecordingOpener())
        guard case .cancel = blocked.decide(url: "https://shop.example.com/help", target: nil, currentPage: Self.shop, navigationTypeRawValue: Self.linkActivated) else {
            Issue.record("new-windows: block let a window through"); return
        }
    }

    @MainActor @Test func theDecisionIsTheEnginesPopupVerdict() throws {
        for windows: NewWindowPolicy in [.sameView, .openExternally, .block] {
            let policy = try Self.policy(windows: windows)
            let decider = PageNavigationDecider(policy: policy, opener: RecordingOpener())
            for (url, type) in [("https://shop.example.com/help", Self.linkActivated), ("https://partner.example.net/", Self.linkActivated), ("https://partner.example.net/", Self.other)] {
                let engine = policy.evaluate(RuntimeRequest(url: url, type: "popup", mainDocumentURL: Self.shop, initiator: NavigationInitiator(navigationTypeRawValue: type)))
                let page = decider.decide(url: url, target: nil, currentPage: Self.shop, navigationTypeRawValue: type)
                switch page {
                case .cancelAndLoad: #expect(engine.verdict != .block && !engine.isHandedToSystem, "\(windows) \(url)")
                case .cancelAndOpen: #expect(engine.isHandedToSystem, "\(windows) \(url)")
                case .cancel: #expect(engine.verdict == .block, "\(windows) \(url)")
                case .allow: Issue.record("a new window was allowed to open a view of its own")
                }
            }
        }
    }

    @Test func thePageSettingsAreThePolicysAndSayWhatAPageCannotHold() throws {
        let defaults = try Self.policy(windows: .sameView).pageSettings
        #expect(defaults == PageSettings(), "no webview: section, the platform's defaults")
        var settings = WebViewSettings()
        settings.javaScript = false
        settings.inspectable = true
        settings.upgradeKnownHostsToHTTPS = false
        settings.javaScriptCanOpenWindows = true
        settings.fraudulentWebsiteWarning = true  // the default: nothing to say
        settings.dataDetectors = [.phoneNumber]
        let page = try Self.policy(windows: .sameView, webView: settings, limit: true).pageSettings
        #expect(!page.allowsContentJavaScript)
        #expect(page.isInspectable)
        #expect(!page.upgradeKnownHostsToHTTPS)
        #expect(page.limitsNavigationsToAppBoundDomains)
        #expect(page.dataDetectors == [.phoneNumber])
        #expect(page.unsupported == [PageSettings.Unsupported(key: "javascript-can-open-windows", value: true)])
    }

    @Test func aPagesSchemeHandlerServesThePackageAsAWebViewsDoes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("page-scheme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("www"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<p>offline</p>".utf8).write(to: folder.appendingPathComponent("www/index.html"))
        var manifest = Manifest(policyName: "offline", targetIOS: "26.0", distribution: "app-store")
        var rule = Manifest.Interception(scheme: "shop-local")
        rule.serve = "www"
        manifest.interception = [rule]
        let plan = SchemeHandlerPlan(manifest)
        let registration = try #require(plan.registrations.first)
        let responder = PolicySchemeResponder(package: plan.package(for: registration, resources: folder))
        guard case .success(let (response, data)) = responder.respond(to: URLRequest(url: URL(string: "shop-local://site/")!)) else {
            Issue.record("the package's index was not served"); return
        }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(response.mimeType == "text/html")
        #expect(String(decoding: data, as: UTF8.self) == "<p>offline</p>")
        guard case .success(let (missing, _)) = responder.respond(to: URLRequest(url: URL(string: "shop-local://site/nope.html")!)) else {
            Issue.record("a missing file was not a 404"); return
        }
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        guard case .failure = PolicySchemeResponder(package: nil).respond(to: URLRequest(url: URL(string: "shop-local://site/")!)) else {
            Issue.record("a handler with nothing to serve answered"); return
        }
    }
}
