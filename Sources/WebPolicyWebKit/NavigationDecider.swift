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
public struct NavigationDecider: Sendable {
    public let policy: RuntimePolicy
    public let opener: ExternalOpener

    public init(policy: RuntimePolicy, opener: ExternalOpener) {
        self.policy = policy
        self.opener = opener
    }

    /// `url`: the navigation's request URL; `isMainFrame`: `navigationAction.targetFrame?.isMainFrame`
    /// (a new window counts as main frame); `currentPage`: `webView.url`, the page it leaves;
    /// `method`: the request's HTTP method.
    public func decide(url: String, isMainFrame: Bool, currentPage: String?, method: String = "GET") -> NavigationDecision {
        let request = isMainFrame
            ? RuntimeRequest(url: url, type: "page", mainDocumentURL: currentPage, method: method)
            : RuntimeRequest(url: url, type: "child-document", mainDocumentURL: currentPage, method: method)
        let decision = policy.evaluate(request)
        switch decision.verdict {
        case .block:
            return .cancel(reason: decision.reason)
        case .allow where decision.handedToSystem != nil:
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
    public func decide<Report>(url: String, isMainFrame: Bool, currentPage: String?, method: String = "GET",
                               after gate: ReadinessGate<Report>) async -> NavigationDecision {
        do {
            try await gate.waitUntilReady()
        } catch {
            return .cancel(reason: "the web view's policy could not be prepared: \(error)")
        }
        return decide(url: url, isMainFrame: isMainFrame, currentPage: currentPage, method: method)
    }
}
