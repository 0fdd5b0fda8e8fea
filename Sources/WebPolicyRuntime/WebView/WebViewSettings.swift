/// `webview:` — the web view's configuration, as the manifest carries it to the app's
/// configurator. Each default is the platform's own (docs/policy-format.md names the source
/// and the iOS version of each), so a policy that says nothing changes nothing. The on/off
/// settings are rows of `WebViewSettingCatalogue`, which names each property here.
public struct WebViewSettings: Sendable, Equatable {
    /// `WKWebpagePreferences.allowsContentJavaScript` (iOS 14; default true): false stops the
    /// page's own scripts — not the app's user scripts.
    public var javaScript = true
    /// `WKPreferences.javaScriptCanOpenWindowsAutomatically` (iOS 8; default false on iOS).
    public var javaScriptCanOpenWindows = false
    /// `WKWebView.isInspectable` (iOS 16.4; default false).
    public var inspectable = false
    /// The folder of the app bundle `loadFileURL(_:allowingReadAccessTo:)` may open; nil: none.
    public var fileAccess: String?
    /// `WKWebViewConfiguration.dataDetectorTypes` (iOS 10; default none).
    public var dataDetectors: [DataDetector] = []
    /// `WKWebViewConfiguration.upgradeKnownHostsToHTTPS` (iOS 14.5; default true).
    public var upgradeKnownHostsToHTTPS = true
    /// `WKPreferences.isFraudulentWebsiteWarningEnabled` (iOS 13; default true).
    public var fraudulentWebsiteWarning = true
    /// `WKPreferences.isElementFullscreenEnabled` (iOS 15.4; default false).
    public var elementFullscreen = false
    public var location: SourceLocation?
    /// Where `javascript` is written, for reasons.
    public var javaScriptLocation: SourceLocation?

    public init() {}
}

/// `WKDataDetectorTypes`, as the policy names them.
public enum DataDetector: String, Sendable, CaseIterable {
    case phoneNumber = "phone-number"
    case link
    case address
    case calendarEvent = "calendar-event"
    case trackingNumber = "tracking-number"
    case flightNumber = "flight-number"
    case lookupSuggestion = "lookup-suggestion"
    case all
}
