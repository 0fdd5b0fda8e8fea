/// The `webview:` settings that take one of a few named values, each a property of
/// `WKWebpagePreferences` — the preferences WebKit applies to each navigation — and of WebKit
/// for SwiftUI's `WebPage.NavigationPreferences`. Set on the configuration's
/// `defaultWebpagePreferences` (a page's `defaultNavigationPreferences`) and again on every
/// navigation the policy's decider admits. An absent key keeps what the platform decides (for
/// `lockdown`: the device's Lockdown Mode). As for the on/off rows, the decoder, merge, JSON
/// Schemas, lint's iOS check, the manifest, the audit and the runtime read this table.
/// Each row's facts are WebKit's header (`WKWebpagePreferences.h`) and Apple's documentation.
extension WebViewSettingCatalogue {
    public static let choices: [WebViewChoiceSetting] = [
        WebViewChoiceSetting(
            key: "lockdown", manifestKey: "lockdown", api: "WKWebpagePreferences.isLockdownModeEnabled",
            swiftName: "isLockdownModeEnabled", objectiveCName: "lockdownModeEnabled", firstIOS: "16.0",
            choices: [.init("true", swift: "true", objectiveC: "YES", rawValue: 1), .init("false", swift: "false", objectiveC: "NO", rawValue: 0)],
            unset: "the device's Lockdown Mode setting", olderIOS: "false",
            summary: "true turns Lockdown Mode on for the view's pages (no JIT, fewer web fonts and APIs), false off even where the device has it on"),
        WebViewChoiceSetting(
            key: "security-restriction-mode", manifestKey: "securityRestrictionMode", api: "WKWebpagePreferences.securityRestrictionMode",
            swiftName: "securityRestrictionMode", objectiveCName: "securityRestrictionMode", firstIOS: "26.4",
            choices: [
                .init("none", swift: "none", objectiveC: "WKSecurityRestrictionModeNone", rawValue: 0),
                .init("maximize-compatibility", swift: "maximizeCompatibility", objectiveC: "WKSecurityRestrictionModeMaximizeCompatibility", rawValue: 1),
                .init("lockdown", swift: "lockdown", objectiveC: "WKSecurityRestrictionModeLockdown", rawValue: 2),
            ],
            unset: "none, or Lockdown where the device is in Lockdown Mode", olderIOS: "none",
            summary: "maximize-compatibility turns JIT off and isolates the page's process; lockdown is Lockdown Mode; a laxer mode than the device's fails silently"),
        WebViewChoiceSetting(
            key: "https-navigation", manifestKey: "httpsNavigation", api: "WKWebpagePreferences.preferredHTTPSNavigationPolicy",
            swiftName: "preferredHTTPSNavigationPolicy", objectiveCName: "preferredHTTPSNavigationPolicy", firstIOS: "18.2",
            choices: [
                .init("keep-as-requested", swift: "keepAsRequested", objectiveC: "WKWebpagePreferencesUpgradeToHTTPSPolicyKeepAsRequested", rawValue: 0),
                .init("automatic-fallback-to-http", swift: "automaticFallbackToHTTP", objectiveC: "WKWebpagePreferencesUpgradeToHTTPSPolicyAutomaticFallbackToHTTP", rawValue: 1),
                .init("user-mediated-fallback-to-http", swift: "userMediatedFallbackToHTTP", objectiveC: "WKWebpagePreferencesUpgradeToHTTPSPolicyUserMediatedFallbackToHTTP", rawValue: 2),
                .init("error-on-failure", swift: "errorOnFailure", objectiveC: "WKWebpagePreferencesUpgradeToHTTPSPolicyErrorOnFailure", rawValue: 3),
            ],
            unset: "keep-as-requested", olderIOS: "keep-as-requested",
            summary: "HTTPS-first for the main frame: an http navigation is tried over https first, then falls back to http automatically, after asking the user, or fails"),
    ]

    /// The row of a policy key.
    public static func choice(key: String) -> WebViewChoiceSetting? { choices.first { $0.key == key } }
}

/// One setting of the view's web-page preferences that takes a named value.
public struct WebViewChoiceSetting: Sendable {
    /// One value: the policy's and the manifest's name, the API's Swift and Objective-C
    /// spellings, and the integer WebKit stores (a Bool for `lockdown`).
    public struct Choice: Sendable, Equatable {
        public let name: String
        public let swift: String
        public let objectiveC: String
        public let rawValue: Int

        public init(_ name: String, swift: String, objectiveC: String, rawValue: Int) {
            self.name = name
            self.swift = swift
            self.objectiveC = objectiveC
            self.rawValue = rawValue
        }
    }

    public let key: String
    public let manifestKey: String
    public let api: String
    public let swiftName: String
    public let objectiveCName: String
    public let firstIOS: String
    public let choices: [Choice]
    /// The WebKit files that declare the property: `WKWebpagePreferences.h`, and WebKit for
    /// SwiftUI's `NavigationPreferences` (cited in `Tests/Fixtures/audit/webkit-api-citations.txt`).
    public var declaredIn: String { "Source/WebKit/UIProcess/API/Cocoa/WKWebpagePreferences.h" }
    public var pageDeclaredIn: String { "Source/WebKit/UIProcess/API/Swift/WebPage+NavigationPreferences.swift" }
    /// What the platform does when the policy says nothing.
    public let unset: String
    /// What an iOS without the property does: a policy asking for it asks nothing of the app.
    public let olderIOS: String
    public let summary: String

    public init(key: String, manifestKey: String, api: String, swiftName: String, objectiveCName: String, firstIOS: String,
                choices: [Choice], unset: String, olderIOS: String, summary: String) {
        self.key = key
        self.manifestKey = manifestKey
        self.api = api
        self.swiftName = swiftName
        self.objectiveCName = objectiveCName
        self.firstIOS = firstIOS
        self.choices = choices
        self.unset = unset
        self.olderIOS = olderIOS
        self.summary = summary
    }

    /// The Objective-C key path from a `WKWebViewConfiguration`.
    public var keyPath: String { "defaultWebpagePreferences." + objectiveCName }

    public func choice(named name: String) -> Choice? { choices.first { $0.name == name } }

    /// The value a code expression names: `.keepAsRequested`,
    /// `WKWebpagePreferences.UpgradeToHTTPSPolicy.keepAsRequested`,
    /// `WKWebpagePreferencesUpgradeToHTTPSPolicyKeepAsRequested`, `true`, `NO`.
    public func choice(writtenAs text: String) -> Choice? {
        let last = text.split(separator: ".").last.map(String.init) ?? text
        return choices.first { $0.swift == last || $0.objectiveC == text || $0.objectiveC == last }
    }

    /// "WKWebpagePreferences.preferredHTTPSNavigationPolicy (iOS 18.2; unset: …): …".
    public var description: String { "\(api) (iOS \(firstIOS); unset: \(unset)): \(summary)." }
}
