import WebPolicyRuntime

/// Tells the navigation delegate which main-frame navigation actions are server redirects.
///
/// WebKit asks the delegate again for each redirect of a navigation under way, and hands it
/// that navigation's own action: `WebPageProxy::decidePolicyForNavigationAction` restores
/// the navigation's `lastNavigationAction` for a redirect, and WebCore's
/// `PolicyChecker::checkNavigationPolicy` reuses the loader's `triggeringAction`. So a link
/// the user tapped stays `.linkActivated` through every redirect it meets — a tap on the
/// shop's own redirector would let its redirect leave the app — and only SPI
/// (`WKNavigationAction._isRedirect`) says that it is one. What public API does tell is the
/// order: a redirect is decided after `webView(_:didStartProvisionalNavigation:)` and before
/// `didCommit` or `didFailProvisionalNavigation`, when nothing else of the main frame is.
/// The conformance lane (`ci/webkit-conformance/navigation_conformance.py`) checks that
/// order in WebKitGTK, whose `webkit_navigation_action_is_redirect` is public.
///
/// A navigation the user or a page starts while another is still provisional reads as a
/// redirect too: one outside `navigation.pages` is then refused rather than opened outside
/// the app — the cautious side — and a second tap, once the page has committed, opens it.
@MainActor
public final class RedirectTracker {
    private var provisional = false

    nonisolated public init() {}

    /// From `webView(_:didStartProvisionalNavigation:)`.
    public func navigationStarted() {
        provisional = true
    }

    /// From `webView(_:didCommit:)`, `webView(_:didFailProvisionalNavigation:withError:)`
    /// and `webView(_:didFail:withError:)`: no main-frame navigation is provisional.
    public func navigationEnded() {
        provisional = false
    }

    /// Who started a navigation action WebKit reports with `navigationTypeRawValue`.
    public func initiator(navigationTypeRawValue: Int, isMainFrame: Bool) -> NavigationInitiator {
        isMainFrame && provisional ? .redirect : NavigationInitiator(navigationTypeRawValue: navigationTypeRawValue)
    }
}
