import WebPolicyRuntime

/// Opens a URL outside the web view (`UIApplication.open` in an app); injectable for tests.
public protocol ExternalOpener: Sendable {
    func open(_ url: String)
}

/// What to do with a navigation.
public enum NavigationDecision: Sendable, Equatable {
    case allow
    /// Cancel: the policy blocks it (the reason says why).
    case cancel(reason: String)
    /// Cancel in the web view and hand the URL to the system: the scheme-allowlist admits it.
    case cancelAndOpen(url: String)
}

/// The navigation half of the policy, for the app's own `WKNavigationDelegate` to call from
/// `webView(_:decidePolicyFor:decisionHandler:)` — it does not take the delegate over, so the
/// app keeps its other navigation logic. Decides with the runtime's engine: what simulate
/// says of a `page` (main frame) or `child-document` (iframe) line is what happens here.
///
/// One decider per web view: its `redirects` follow that view's provisional navigation.
public struct NavigationDecider: Sendable {
    public let policy: RuntimePolicy
    public let opener: ExternalOpener
    /// Which actions are server redirects, from the delegate's provisional-navigation
    /// callbacks (the app forwards them; see `RedirectTracker`).
    public let redirects: RedirectTracker

    public init(policy: RuntimePolicy, opener: ExternalOpener) {
        self.policy = policy
        self.opener = opener
        redirects = RedirectTracker()
    }

    /// `url`: the navigation's request URL; `isMainFrame`: `navigationAction.targetFrame?.isMainFrame`
    /// (a new window counts as main frame, and is `WindowDecider`'s); `currentPage`: `webView.url`,
    /// the page it leaves; `method`: the request's HTTP method; `initiator`: how it started
    /// (`NavigationInitiator(navigationType:)` reads `WKNavigationAction.navigationType`).
    public func decide(url: String, isMainFrame: Bool, currentPage: String?, method: String = "GET", initiator: NavigationInitiator = .link) -> NavigationDecision {
        let request = isMainFrame
            ? RuntimeRequest(url: url, type: "page", mainDocumentURL: currentPage, method: method, initiator: initiator)
            : RuntimeRequest(url: url, type: "child-document", mainDocumentURL: currentPage, method: method, initiator: initiator)
        return Self.decision(for: policy.evaluate(request), opener: opener)
    }

    /// What the engine's verdict means for a navigation: a hand-off is cancelled in the view
    /// and opened by the system; a block is cancelled; the rest go ahead.
    static func decision(for decision: RuntimeDecision, opener: ExternalOpener) -> NavigationDecision {
        switch decision.verdict {
        case .block:
            return .cancel(reason: decision.reason)
        case _ where decision.isHandedToSystem:
            opener.open(decision.finalURL)
            return .cancelAndOpen(url: decision.finalURL)
        case .allow, .upgrade, .intercept:
            // `upgrade`: WebKit's own make-https rewrites the load; `intercept`: the
            // registered scheme handler serves it.
            return .allow
        }
    }

    /// The same, once the web view's preparation (`gate`) has finished: the first navigation
    /// waits for its content-rule lists and cookies. A failed preparation cancels — the view
    /// would load without the rules it was promised.
    public func decide<Report>(url: String, isMainFrame: Bool, currentPage: String?, method: String = "GET", initiator: NavigationInitiator = .link,
                               after gate: ReadinessGate<Report>) async -> NavigationDecision {
        do {
            try await gate.waitUntilReady()
        } catch {
            return .cancel(reason: "the web view's policy could not be prepared: \(error)")
        }
        return decide(url: url, isMainFrame: isMainFrame, currentPage: currentPage, method: method, initiator: initiator)
    }
}

extension NavigationInitiator {
    /// How WebKit tells the app how a navigation started (`WKNavigationType`, by its raw
    /// value so this file needs no WebKit): a link the user activated is the only way out of
    /// the app; a script and the app's own load are `.other` to WebKit, and neither is the
    /// user's. A server redirect carries the type of the navigation it redirects, so this
    /// alone cannot tell one: `RedirectTracker` does.
    public init(navigationTypeRawValue: Int) {
        switch navigationTypeRawValue {
        case 0: self = .link  // .linkActivated
        case 1, 4: self = .form  // .formSubmitted, .formResubmitted
        case 2, 3: self = .backForward  // .backForward, .reload
        default: self = .script  // .other: a script, a redirect, the app's own load
        }
    }
}
