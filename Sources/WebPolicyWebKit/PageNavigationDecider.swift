import WebPolicyRuntime

/// What a WebKit for SwiftUI page's navigation decider does with one action.
public enum PageNavigationDecision: Sendable, Equatable {
    /// Let it go ahead, with the page's scripts on or off as `webview.javascript` says.
    case allow(allowsContentJavaScript: Bool)
    /// Cancel: the policy blocks it (the reason says why).
    case cancel(reason: String)
    /// Cancel, and hand the URL to the system.
    case cancelAndOpen(url: String)
    /// A new window the policy shows in the same view: cancel the action and load the URL in
    /// the page (`page.load(URLRequest(url:))`), since a page opens no window of its own.
    case cancelAndLoad(url: String)
}

/// The navigation and new-window halves of the policy for a `WebPage.NavigationDeciding`
/// (iOS 26). A page has no new-window hook: the UI delegate WebKit installs for it
/// (`WKUIDelegateAdapter.swift`) implements no `createWebViewWith`, so `target=_blank` and
/// `window.open` reach the app only here, as an action without a target frame — decided as
/// `navigation.new-windows` says, as `WindowDecider` decides it for a WKWebView. Everything
/// else is `NavigationDecider`'s decision: what simulate says of a `page`, `child-document` or
/// `popup` line is what happens.
public struct PageNavigationDecider: Sendable {
    public let navigations: NavigationDecider
    public let windows: WindowDecider
    public let settings: PageSettings

    public init(policy: RuntimePolicy, opener: ExternalOpener) {
        navigations = NavigationDecider(policy: policy, opener: opener)
        windows = WindowDecider(policy: policy, opener: opener)
        settings = policy.pageSettings
    }

    /// Which actions are server redirects: the app forwards the page's navigation events
    /// (`startedProvisionalNavigation`, `committed`, a failure) as a WKWebView app forwards the
    /// delegate's callbacks.
    public var redirects: RedirectTracker { navigations.redirects }

    /// `url`: the action's request URL; `target`: `action.target?.isMainFrame`, nil for a new
    /// window; `currentPage`: `page.url`; `navigationTypeRawValue`: `action.navigationType.rawValue`.
    @MainActor public func decide(url: String, target isMainFrame: Bool?, currentPage: String?, method: String = "GET", navigationTypeRawValue: Int) -> PageNavigationDecision {
        guard let isMainFrame else {
            switch windows.decide(url: url, currentPage: currentPage, initiator: NavigationInitiator(navigationTypeRawValue: navigationTypeRawValue)) {
            case .loadInSameView(let url): return .cancelAndLoad(url: url)
            case .openExternally(let url): return .cancelAndOpen(url: url)
            case .refuse(let reason): return .cancel(reason: reason)
            }
        }
        let initiator = redirects.initiator(navigationTypeRawValue: navigationTypeRawValue, isMainFrame: isMainFrame)
        switch navigations.decide(url: url, isMainFrame: isMainFrame, currentPage: currentPage, method: method, initiator: initiator) {
        case .allow: return .allow(allowsContentJavaScript: settings.allowsContentJavaScript)
        case .cancel(let reason): return .cancel(reason: reason)
        case .cancelAndOpen(let url): return .cancelAndOpen(url: url)
        }
    }
}
