import WebPolicyRuntime

/// What the policy sets on a WebKit for SwiftUI page (iOS 26): its configuration's default
/// navigation preferences and flags, and the page's inspectability. A `WebPage.Configuration`
/// has no `WKPreferences` (WebKit's `WebPage+Configuration.swift` declares none), so the
/// `webview:` rows kept there — scripts opening windows, the Safe Browsing warning, element
/// fullscreen — have no place on a page: `unsupported` lists those whose value differs from the
/// platform's default, for the app to log or to lint against.
public struct PageSettings: Sendable, Equatable {
    /// `defaultNavigationPreferences.allowsContentJavaScript`, and each navigation's.
    public var allowsContentJavaScript = true
    public var upgradeKnownHostsToHTTPS = true
    /// `WebPage.isInspectable`, set on the page once it exists.
    public var isInspectable = false
    public var limitsNavigationsToAppBoundDomains = false
    /// `dataDetectorTypes` (iOS).
    public var dataDetectors: [DataDetector] = []
    /// Policy keys a page cannot hold, with the value the policy asks.
    public var unsupported: [Unsupported] = []
    /// The web-page preferences the policy names (`lockdown`, `security-restriction-mode`,
    /// `https-navigation`), by policy key: `defaultNavigationPreferences`, and each navigation's.
    public var navigationPreferences: [String: WebViewChoiceSetting.Choice] = [:]
    /// `websiteDataStore`; nil: the page's default (`.default()`).
    public var dataStore: WebsiteDataStoreChoice?
    /// `web-extensions: none`: the page's `webExtensionController` stays nil.
    public var removesWebExtensionController = false

    public struct Unsupported: Sendable, Equatable {
        public var key: String
        public var value: Bool
    }

    public init() {}
}

extension RuntimePolicy {
    /// The page settings `webview:` and `app-bound-domains:` ask for; with neither section, the
    /// platform's defaults.
    public var pageSettings: PageSettings {
        var page = PageSettings()
        page.limitsNavigationsToAppBoundDomains = manifest.appBoundDomains?.limitNavigations ?? false
        guard let settings = manifest.webView else { return page }
        page.dataDetectors = settings.dataDetectors
        for row in WebViewSettingCatalogue.choices {
            page.navigationPreferences[row.key] = settings[choice: row]
        }
        page.dataStore = settings.dataStore
        page.removesWebExtensionController = settings.webExtensions?.isEmpty == true
        for row in WebViewSettingCatalogue.booleans {
            let value = settings[keyPath: row.setting]
            switch row.key {
            case "javascript": page.allowsContentJavaScript = value
            case "upgrade-known-hosts-to-https": page.upgradeKnownHostsToHTTPS = value
            case "inspectable": page.isInspectable = value
            default:
                if value != row.defaultValue { page.unsupported.append(.init(key: row.key, value: value)) }
            }
        }
        return page
    }
}
