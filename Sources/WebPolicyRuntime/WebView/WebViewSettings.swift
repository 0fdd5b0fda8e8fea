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
    /// The web-page preferences written as named values (`WebViewSettingCatalogue.choices`),
    /// by policy key; an absent key keeps what the platform decides.
    public var choices: [String: String] = [:]
    /// `data-store`; nil: the store the app's code gives the view (by default, the default).
    public var dataStore: WebsiteDataStoreChoice?
    /// `web-extensions`: the extensions the app may load into the view; empty: none (no
    /// `webExtensionController`); nil: the policy does not say.
    public var webExtensions: [String]?
    /// `permissions`: camera, microphone and motion sensors, decided by `PermissionStep`.
    public var permissions = PermissionRules()
    public var location: SourceLocation?
    /// Where `javascript` is written, for reasons.
    public var javaScriptLocation: SourceLocation?

    public init() {}

    /// The named value the policy gives a web-page preference; nil: the platform decides.
    public subscript(choice row: WebViewChoiceSetting) -> WebViewChoiceSetting.Choice? {
        choices[row.key].flatMap(row.choice(named:))
    }

    /// Whether the policy says anything a version-4 manifest reader would not apply: the
    /// web-page preferences, the data store, extensions or permissions.
    var hasSecuritySettings: Bool { !choices.isEmpty || dataStore != nil || webExtensions != nil || !permissions.isEmpty }
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
