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
    /// Sets a web-page preference on `defaultWebpagePreferences`, from which WebKit starts
    /// each navigation's preferences; an OS without the property keeps what it does.
    func apply(_ setting: WebViewChoiceSetting, _ choice: WebViewChoiceSetting.Choice)
    /// `websiteDataStore` (`WKWebsiteDataStore.default()`, `.nonPersistent()`, or
    /// `WKWebsiteDataStore(forIdentifier:)` on iOS 17 and later).
    func useDataStore(_ store: WebsiteDataStoreChoice)
    /// `webExtensionController = nil` (iOS 18.4): the view loads no web extension.
    func removeWebExtensionController()
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
        for row in WebViewSettingCatalogue.choices {
            if let choice = settings[choice: row] { configuration.apply(row, choice) }
        }
        if let store = settings.dataStore { configuration.useDataStore(store) }
        if settings.webExtensions?.isEmpty == true { configuration.removeWebExtensionController() }
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
