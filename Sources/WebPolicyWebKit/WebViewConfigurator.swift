import Foundation
import WebPolicyRuntime

/// The configuration a policy's `webview:` sets before the web view exists: a
/// `WKWebViewConfiguration` in an app (its adapter reaches into `defaultWebpagePreferences`
/// and `preferences`), a fake in tests.
public protocol WebViewConfigurable: AnyObject {
    /// `defaultWebpagePreferences.allowsContentJavaScript` (iOS 14).
    var allowsContentJavaScript: Bool { get set }
    /// `preferences.javaScriptCanOpenWindowsAutomatically`.
    var javaScriptCanOpenWindowsAutomatically: Bool { get set }
    /// `upgradeKnownHostsToHTTPS` (iOS 14.5).
    var upgradeKnownHostsToHTTPS: Bool { get set }
    /// `preferences.isFraudulentWebsiteWarningEnabled` (iOS 13).
    var fraudulentWebsiteWarning: Bool { get set }
    /// `dataDetectorTypes` (iOS only).
    var dataDetectors: [DataDetector] { get set }
}

/// What is set on the view itself, once it exists: `isInspectable` (iOS 16.4).
public protocol InspectionTarget: AnyObject {
    func applyInspectable(_ inspectable: Bool)
}

extension RuntimePolicy {
    /// Applies `webview:` to a configuration before the view exists (WebKit copies the
    /// configuration when it makes the view). A policy without the section changes nothing.
    public func configureWebView(_ configuration: WebViewConfigurable) {
        guard let settings = manifest.webView else { return }
        configuration.allowsContentJavaScript = settings.javaScript
        configuration.javaScriptCanOpenWindowsAutomatically = settings.javaScriptCanOpenWindows
        configuration.upgradeKnownHostsToHTTPS = settings.upgradeKnownHostsToHTTPS
        configuration.fraudulentWebsiteWarning = settings.fraudulentWebsiteWarning
        configuration.dataDetectors = settings.dataDetectors
    }

    /// Applies `webview.inspectable` to the view (with no section: nothing).
    public func configureInspection(_ view: InspectionTarget) {
        guard let settings = manifest.webView else { return }
        view.applyInspectable(settings.inspectable)
    }
}
