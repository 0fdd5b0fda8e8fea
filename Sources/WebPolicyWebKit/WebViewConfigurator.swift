import Foundation
import WebPolicyRuntime

/// Something an on/off setting of `webview:` is set on: a `WKWebViewConfiguration` or a
/// `WKWebView` in an app (their adapters set the row's key path), a fake in tests.
public protocol WebViewSettingTarget: AnyObject {
    /// Sets one `WebViewSettingCatalogue` row. An OS without the row's property keeps what it
    /// does without it (lint's webview-key-ios says when a policy asks for more).
    func apply(_ setting: WebViewBooleanSetting, _ value: Bool)
}

/// The configuration a policy's `webview:` sets before the web view exists.
public protocol WebViewConfigurable: WebViewSettingTarget {
    /// `dataDetectorTypes` (iOS only).
    var dataDetectors: [DataDetector] { get set }
}

/// The view itself, for the settings it holds once it exists: `isInspectable` (iOS 16.4).
public protocol InspectionTarget: WebViewSettingTarget {}

extension RuntimePolicy {
    /// Applies `webview:` to a configuration before the view exists (WebKit copies the
    /// configuration when it makes the view): every row the configuration holds, defaults
    /// included. A policy without the section changes nothing.
    public func configureWebView(_ configuration: WebViewConfigurable) {
        guard let settings = manifest.webView else { return }
        apply(settings, to: configuration, .configuration)
        configuration.dataDetectors = settings.dataDetectors
    }

    /// Applies the settings the view holds, `webview.inspectable` (with no section: nothing).
    public func configureInspection(_ view: InspectionTarget) {
        guard let settings = manifest.webView else { return }
        apply(settings, to: view, .view)
    }

    private func apply(_ settings: WebViewSettings, to target: WebViewSettingTarget, _ holder: WebViewBooleanSetting.Target) {
        for row in WebViewSettingCatalogue.booleans where row.target == holder {
            target.apply(row, settings[keyPath: row.setting])
        }
    }
}
