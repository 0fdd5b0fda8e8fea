import WebPolicyRuntime

/// What the configuration step sets before the web view exists (`WKWebViewConfiguration` is
/// copied when the view is made): a `WKWebViewConfiguration` in an app, a fake in tests.
public protocol NavigationConfigurable: AnyObject {
    /// `limitsNavigationsToAppBoundDomains` (iOS 14+).
    var limitsNavigationsToAppBoundDomains: Bool { get set }
}

extension RuntimePolicy {
    /// Sets what the policy's `app-bound-domains` asks of a web view's configuration. WebKit
    /// reads the domains themselves from Info.plist (`WKAppBoundDomains`, merged there by the
    /// build phase in docs/runtime.md); this sets the flag that makes them a limit — without
    /// it, once the key exists, WebKit denies cookies, scripts and message handlers instead
    /// (webkit.org/blog/10882).
    public func configureNavigation(_ configuration: NavigationConfigurable) {
        guard let appBound = manifest.appBoundDomains else { return }
        configuration.limitsNavigationsToAppBoundDomains = appBound.limitNavigations
    }
}
