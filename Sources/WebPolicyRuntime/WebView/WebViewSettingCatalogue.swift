/// Every on/off setting of `webview:`, one row each: the policy's key, the manifest's, the
/// WebKit property it sets (Swift and Objective-C names, and the key path from the object the
/// runtime holds), the iOS that has it, its default there, and what an older iOS does without
/// it. The policy's decoder, merge and JSON Schema, lint's iOS check, the manifest codec and
/// the runtime's configurator read this table, so a new setting is one row here and its tests
/// (docs/architecture.md). Each row's facts are Apple's documentation of the property.
public enum WebViewSettingCatalogue {
    public static let booleans: [WebViewBooleanSetting] = [
        WebViewBooleanSetting(
            key: "javascript", declaredIn: "Source/WebKit/UIProcess/API/Cocoa/WKWebpagePreferences.h", manifestKey: "javaScript", api: "WKWebpagePreferences.allowsContentJavaScript",
            swiftName: "allowsContentJavaScript", objectiveCName: "allowsContentJavaScript",
            keyPath: "defaultWebpagePreferences.allowsContentJavaScript", on: .configuration,
            firstIOS: "14.0", defaultValue: true, olderIOS: true, setting: \.javaScript,
            summary: "false stops the page's own scripts, not the app's user scripts"),
        WebViewBooleanSetting(
            key: "javascript-can-open-windows", declaredIn: "Source/WebKit/UIProcess/API/Cocoa/WKPreferences.h", manifestKey: "javaScriptCanOpenWindows", api: "WKPreferences.javaScriptCanOpenWindowsAutomatically",
            swiftName: "javaScriptCanOpenWindowsAutomatically", objectiveCName: "javaScriptCanOpenWindowsAutomatically",
            keyPath: "preferences.javaScriptCanOpenWindowsAutomatically", on: .configuration,
            firstIOS: "8.0", defaultValue: false, olderIOS: false, setting: \.javaScriptCanOpenWindows,
            summary: "true lets scripts open windows without a tap"),
        WebViewBooleanSetting(
            key: "inspectable", declaredIn: "Source/WebKit/UIProcess/API/Cocoa/WKWebView.h", manifestKey: "inspectable", api: "WKWebView.isInspectable",
            swiftName: "isInspectable", objectiveCName: "inspectable",
            keyPath: "inspectable", on: .view,
            firstIOS: "16.4", defaultValue: false, olderIOS: false, hardened: false, setting: \.inspectable,
            summary: "true lets Safari's Web Inspector read and change the page"),
        WebViewBooleanSetting(
            key: "upgrade-known-hosts-to-https", declaredIn: "Source/WebKit/UIProcess/API/Cocoa/WKWebViewConfiguration.h", manifestKey: "upgradeKnownHostsToHTTPS", api: "WKWebViewConfiguration.upgradeKnownHostsToHTTPS",
            swiftName: "upgradeKnownHostsToHTTPS", objectiveCName: "upgradeKnownHostsToHTTPS",
            keyPath: "upgradeKnownHostsToHTTPS", on: .configuration,
            firstIOS: "14.5", defaultValue: true, olderIOS: false, hardened: true, setting: \.upgradeKnownHostsToHTTPS,
            summary: "http loads of hosts known to serve https are made over https"),
        WebViewBooleanSetting(
            key: "fraudulent-website-warning", declaredIn: "Source/WebKit/UIProcess/API/Cocoa/WKPreferences.h", manifestKey: "fraudulentWebsiteWarning", api: "WKPreferences.isFraudulentWebsiteWarningEnabled",
            swiftName: "isFraudulentWebsiteWarningEnabled", objectiveCName: "fraudulentWebsiteWarningEnabled",
            keyPath: "preferences.fraudulentWebsiteWarningEnabled", on: .configuration,
            firstIOS: "13.0", defaultValue: true, olderIOS: true, hardened: true, setting: \.fraudulentWebsiteWarning,
            summary: "the Safe Browsing warning before a page known for phishing or malware"),
        WebViewBooleanSetting(
            key: "element-fullscreen", declaredIn: "Source/WebKit/UIProcess/API/Cocoa/WKPreferences.h", manifestKey: "elementFullscreen", api: "WKPreferences.isElementFullscreenEnabled",
            swiftName: "isElementFullscreenEnabled", objectiveCName: "elementFullscreenEnabled",
            keyPath: "preferences.elementFullscreenEnabled", on: .configuration,
            firstIOS: "15.4", defaultValue: false, olderIOS: false, setting: \.elementFullscreen,
            summary: "true lets the page's requestFullscreen() take the whole screen, a video player or a game"),
    ]

    /// The row of a policy key.
    public static func boolean(key: String) -> WebViewBooleanSetting? { booleans.first { $0.key == key } }
}

/// One on/off setting of the web view.
public struct WebViewBooleanSetting: Sendable {
    /// What holds the property: the configuration before the view exists, or the view.
    public enum Target: String, Sendable {
        case configuration
        case view
    }

    /// The policy's key under `webview:`.
    public let key: String
    /// The WebKit file that declares the property (cited at its line in
    /// `Tests/Fixtures/audit/webkit-api-citations.txt`, checked against WebKit's source).
    public let declaredIn: String
    /// The manifest's key under `webView`.
    public let manifestKey: String
    /// The property, as Apple's documentation names it (`WKPreferences.isElementFullscreenEnabled`).
    public let api: String
    /// The property's Swift and Objective-C names, as app code writes them (the audit reads them).
    public let swiftName: String
    public let objectiveCName: String
    /// The Objective-C key path from the target (`preferences.elementFullscreenEnabled`): how
    /// the runtime sets it, and how far it checks the property exists on an older iOS.
    public let keyPath: String
    public let target: Target
    /// The first iOS with the property.
    public let firstIOS: String
    /// The platform's default where the property exists: what a policy that says nothing keeps.
    public let defaultValue: Bool
    /// What an iOS without the property does (nothing upgraded known hosts before 14.5).
    public let olderIOS: Bool
    /// The value that keeps the view as safe as the platform made it, where the other one
    /// weakens it (a Safe Browsing warning off, known hosts on http, the page open to Web
    /// Inspector); nil where either value is a product choice. A draft writes this value,
    /// whatever the code says, and asks the team to decide.
    public let hardened: Bool?
    /// Where the value lives in the runtime's settings.
    public let setting: WritableKeyPath<WebViewSettings, Bool> & Sendable
    /// What `true` does, for the schema and the docs.
    public let summary: String

    public init(key: String, declaredIn: String, manifestKey: String, api: String, swiftName: String, objectiveCName: String, keyPath: String, on target: Target,
                firstIOS: String, defaultValue: Bool, olderIOS: Bool, hardened: Bool? = nil, setting: WritableKeyPath<WebViewSettings, Bool> & Sendable, summary: String) {
        self.key = key
        self.declaredIn = declaredIn
        self.manifestKey = manifestKey
        self.api = api
        self.swiftName = swiftName
        self.objectiveCName = objectiveCName
        self.keyPath = keyPath
        self.target = target
        self.firstIOS = firstIOS
        self.defaultValue = defaultValue
        self.olderIOS = olderIOS
        self.hardened = hardened
        self.setting = setting
        self.summary = summary
    }

    /// "WKPreferences.isElementFullscreenEnabled (iOS 15.4; default false): …", the schema's
    /// description.
    public var description: String { "\(api) (iOS \(firstIOS); default \(defaultValue)): \(summary)." }
}
