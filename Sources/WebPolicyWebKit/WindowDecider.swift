import WebPolicyRuntime

/// What to do with a new window — `target=_blank` or `window.open` — that the page asks for.
public enum WindowDecision: Sendable, Equatable {
    /// Load the URL in the view that asked (`navigation.new-windows: same-view`), as one of
    /// its navigations: never a second web view the policy does not govern.
    case loadInSameView(url: String)
    /// Hand it to the system (`open-externally`, for a link the user activated).
    case openExternally(url: String)
    /// Refuse it (the reason says why).
    case refuse(reason: String)
}

/// The new-window half of the policy, for the app's `WKUIDelegate.webView(_:createWebViewWith:
/// for:windowFeatures:)`, which returns nil whatever this says: the view never spawns a second
/// web view. Decides with the runtime's engine, as simulate decides a `popup` line.
public struct WindowDecider: Sendable {
    public let policy: RuntimePolicy
    public let opener: ExternalOpener

    public init(policy: RuntimePolicy, opener: ExternalOpener) {
        self.policy = policy
        self.opener = opener
    }

    /// `url`: the new window's request URL; `currentPage`: the opener's page (`webView.url`);
    /// `initiator`: how it started (a link the user activated, or a script).
    public func decide(url: String, currentPage: String?, initiator: NavigationInitiator = .link) -> WindowDecision {
        let decision = policy.evaluate(RuntimeRequest(url: url, type: "popup", mainDocumentURL: currentPage, initiator: initiator))
        switch decision.verdict {
        case .block:
            return .refuse(reason: decision.reason)
        case _ where decision.isHandedToSystem:
            opener.open(decision.finalURL)
            return .openExternally(url: decision.finalURL)
        case .allow, .upgrade, .intercept:
            return .loadInSameView(url: url)
        }
    }
}
