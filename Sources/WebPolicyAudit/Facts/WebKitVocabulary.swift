import WebPolicyRuntime

/// The names the readers look for, in one place for Swift and Objective-C: WebKit's API as
/// Apple documents it, the private names apps reach for, and the runtime's own calls — so a
/// renamed runtime API breaks a test here, not the audit silently.
public enum WebKitVocabulary {
    /// Swift property names of settings, and what they set: every row of `webview:`'s
    /// catalogue, and the settings no policy key holds.
    package static let swiftSettings: [String: AppFact.SettingKey] = catalogue(\.swiftName).merging([
        "javaScriptEnabled": .javaScriptEnabled,
        "dataDetectorTypes": .dataDetectorTypes,
        "limitsNavigationsToAppBoundDomains": .limitsNavigationsToAppBoundDomains,
        "navigationDelegate": .navigationDelegate,
        "uiDelegate": .uiDelegate,
        "isLockdownModeEnabled": .lockdownModeEnabled,
        "securityRestrictionMode": .securityRestrictionMode,
        "preferredHTTPSNavigationPolicy": .preferredHTTPSNavigationPolicy,
        "websiteDataStore": .websiteDataStore,
        "webExtensionController": .webExtensionController,
        "deviceSensorAuthorization": .deviceSensorAuthorization,
    ]) { row, _ in row }

    /// Objective-C property names (dot syntax) and their setters.
    static let objectiveCSettings: [String: AppFact.SettingKey] = catalogue(\.objectiveCName).merging([
        "javaScriptEnabled": .javaScriptEnabled,
        "dataDetectorTypes": .dataDetectorTypes,
        "limitsNavigationsToAppBoundDomains": .limitsNavigationsToAppBoundDomains,
        "navigationDelegate": .navigationDelegate,
        "UIDelegate": .uiDelegate,
        "lockdownModeEnabled": .lockdownModeEnabled,
        "securityRestrictionMode": .securityRestrictionMode,
        "preferredHTTPSNavigationPolicy": .preferredHTTPSNavigationPolicy,
        "websiteDataStore": .websiteDataStore,
        "webExtensionController": .webExtensionController,
    ]) { row, _ in row }

    /// The catalogue's rows by one of their names (a row without a `SettingKey` is caught by
    /// `WebKitVocabularyTests`).
    private static func catalogue(_ name: KeyPath<WebViewBooleanSetting, String>) -> [String: AppFact.SettingKey] {
        Dictionary(uniqueKeysWithValues: WebViewSettingCatalogue.booleans.compactMap { row in AppFact.SettingKey(row).map { (row[keyPath: name], $0) } })
    }

    static let objectiveCSetters: [String: AppFact.SettingKey] = Dictionary(uniqueKeysWithValues: objectiveCSettings.map { name, key in
        ("set" + name.prefix(1).uppercased() + name.dropFirst() + ":", key)
    })

    /// Names of private WebKit API that turn up in apps, found in code or in strings (the
    /// hack is usually built from a string): App Review Guideline 2.5.1 ("Apps may only use
    /// public APIs"); WebKit's own TestProtocol.mm is where the custom-protocol one lives.
    public static let privateNames: Set<String> = [
        "registerSchemeForCustomProtocol", "unregisterSchemeForCustomProtocol",
        "WKBrowsingContextController", "browsingContextController",
    ]

    /// The private name a string or identifier mentions, if any. Checked on every string
    /// literal and identifier of an app, so it looks at bytes: the names are long and all
    /// hold "rotocol" or "rowsingContext".
    public static func privateName(in text: String) -> String? {
        let bytes = text.utf8
        // `_WKWebsiteDataTypeHSTSCache`, `_WKUserStyleSheet`: WebKit's SPI keeps the `_WK` prefix.
        if bytes.count > 4, bytes.starts(with: "_WK".utf8), let fourth = bytes.dropFirst(3).first, fourth >= UInt8(ascii: "A"), fourth <= UInt8(ascii: "Z"),
           bytes.allSatisfy({ $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ":") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) {
            return text
        }
        guard bytes.count >= 25, contains(bytes, "rotocol") || contains(bytes, "rowsingContext") else { return nil }
        return privateNames.sorted().first { contains(bytes, $0) }
    }

    /// Whether `needle`'s bytes occur in `haystack`: a first-byte scan, then a compare.
    static func contains(_ haystack: String.UTF8View, _ needle: String) -> Bool {
        let target = Array(needle.utf8)
        guard let first = target.first, haystack.count >= target.count else { return false }
        let bytes = Array(haystack)
        var index = 0
        while index + target.count <= bytes.count {
            if bytes[index] == first, bytes[index..<(index + target.count)].elementsEqual(target) { return true }
            index += 1
        }
        return false
    }

    /// A selector spelled by string to reach a method of WebKit's own (`sel_getUid("_elementDidFocus:…")`,
    /// `NSSelectorFromString(@"_setDrawsBackground:")`) in a WebKit type's extension or category:
    /// an underscore-prefixed method is SPI by Apple's naming.
    public static func privateSelector(_ text: String, in type: String?) -> String? {
        guard let type, type.hasPrefix("WK"), text.count > 2, text.first == "_",
              let second = text.dropFirst().first, second.isLowercase, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }) else { return nil }
        return text
    }

    /// The functions that turn a selector's name into a selector.
    public static let selectorFunctions: Set<String> = ["sel_getUid", "sel_registerName", "NSSelectorFromString", "Selector"]

    /// KVC keys that reach preferences WebKit does not make public (MASTG-TEST-0077).
    public static let fileAccessKeys: Set<String> = ["allowFileAccessFromFileURLs", "allowUniversalAccessFromFileURLs"]
    /// The pre-16.4 way to make a view inspectable.
    public static let developerExtrasKey = "developerExtrasEnabled"

    /// The WebKit objects whose keys the audit knows, as key-value coding reaches them.
    public enum KeyValueOwner: String, Sendable {
        case webView = "WKWebView"
        case configuration = "WKWebViewConfiguration"
        case preferences = "WKPreferences"
        case webpagePreferences = "WKWebpagePreferences"
    }

    /// Which WebKit object a `setValue(_:forKey:)` receiver is, by how it is written
    /// (`webView`, `configuration.preferences`, `self` in a WKWebView subclass); nil for an
    /// object the audit cannot tell is WebKit's (a `UserDefaults`, a dictionary).
    public static func keyValueOwner(of receiver: String?, in type: String?, webViewClasses: Set<String>) -> KeyValueOwner? {
        var text = receiver ?? "self"
        text.removeAll { $0 == "?" || $0 == "!" }
        if text.hasPrefix("self.") { text.removeFirst("self.".count) }
        if text == "self" || text == "super" { return type.map(webViewClasses.contains) == true ? .webView : nil }
        let lowered = text.lowercased()
        let last = lowered.split(separator: ".").last.map(String.init) ?? lowered
        if last.hasSuffix("webview") { return .webView }
        if last.hasSuffix("webpagepreferences") { return .webpagePreferences }
        if last == "preferences" || last.hasSuffix("wkpreferences") {
            return lowered.contains("configuration") || lowered.contains("config") || lowered.contains("webview") || last != "preferences" ? .preferences : nil
        }
        if last == "configuration" || last == "config" || last.hasSuffix("webconfiguration") || last.hasSuffix("webviewconfiguration") { return .configuration }
        return nil
    }

    /// Whether `key` is a public property of `owner` (its Objective-C and Swift names; a web
    /// view's include the `UIView` it is): Apple's WebKit and UIKit documentation.
    public static func isPublicKey(_ key: String, of owner: KeyValueOwner) -> Bool {
        switch owner {
        case .webView: return webViewKeys.contains(key) || viewKeys.contains(key)
        case .configuration: return configurationKeys.contains(key)
        case .preferences: return preferencesKeys.contains(key)
        case .webpagePreferences: return webpagePreferencesKeys.contains(key)
        }
    }

    static let webViewKeys: Set<String> = [
        "configuration", "navigationDelegate", "UIDelegate", "uiDelegate", "backForwardList", "title", "URL", "url", "loading", "isLoading",
        "estimatedProgress", "hasOnlySecureContent", "serverTrust", "canGoBack", "canGoForward", "allowsBackForwardNavigationGestures",
        "customUserAgent", "allowsLinkPreview", "scrollView", "pageZoom", "mediaType", "themeColor", "underPageBackgroundColor", "inspectable",
        "isInspectable", "findInteractionEnabled", "isFindInteractionEnabled", "findInteraction", "interactionState", "cameraCaptureState",
        "microphoneCaptureState", "fullscreenState", "allowsMagnification", "magnification", "writingToolsBehavior", "isWritingToolsActive",
        "writingToolsActive", "obscuredContentInsets", "minimumViewportInset", "maximumViewportInset",
    ]
    static let viewKeys: Set<String> = [
        "frame", "bounds", "center", "transform", "backgroundColor", "alpha", "opaque", "isOpaque", "hidden", "isHidden", "tag", "clipsToBounds",
        "contentMode", "tintColor", "userInteractionEnabled", "isUserInteractionEnabled", "multipleTouchEnabled", "isMultipleTouchEnabled",
        "exclusiveTouch", "isExclusiveTouch", "layer", "mask", "translatesAutoresizingMaskIntoConstraints", "autoresizingMask",
        "accessibilityLabel", "accessibilityIdentifier", "accessibilityHint", "accessibilityValue", "isAccessibilityElement",
        "semanticContentAttribute", "overrideUserInterfaceStyle", "layoutMargins", "directionalLayoutMargins", "preservesSuperviewLayoutMargins",
        "insetsLayoutMarginsFromSafeArea", "contentScaleFactor", "restorationIdentifier", "focusGroupIdentifier",
    ]
    static let configurationKeys: Set<String> = [
        "processPool", "preferences", "userContentController", "websiteDataStore", "suppressesIncrementalRendering", "applicationNameForUserAgent",
        "allowsAirPlayForMediaPlayback", "mediaTypesRequiringUserActionForPlayback", "requiresUserActionForMediaPlayback",
        "mediaPlaybackRequiresUserAction", "allowsInlineMediaPlayback", "selectionGranularity", "allowsPictureInPictureMediaPlayback",
        "dataDetectorTypes", "ignoresViewportScaleLimits", "defaultWebpagePreferences", "limitsNavigationsToAppBoundDomains",
        "upgradeKnownHostsToHTTPS", "allowsInlinePredictions", "webExtensionController", "supportsAdaptiveImageGlyph", "writingToolsBehavior",
        "showsSystemScreenTimeBlockingView", "userInterfaceDirectionPolicy",
    ]
    static let preferencesKeys: Set<String> = [
        "minimumFontSize", "javaScriptEnabled", "javaScriptCanOpenWindowsAutomatically", "fraudulentWebsiteWarningEnabled",
        "isFraudulentWebsiteWarningEnabled", "textInteractionEnabled", "isTextInteractionEnabled", "elementFullscreenEnabled",
        "isElementFullscreenEnabled", "siteSpecificQuirksModeEnabled", "isSiteSpecificQuirksModeEnabled", "shouldPrintBackgrounds",
        "tabFocusesLinks", "inactiveSchedulingPolicy",
    ]
    static let webpagePreferencesKeys: Set<String> = [
        "allowsContentJavaScript", "preferredContentMode", "lockdownModeEnabled", "isLockdownModeEnabled", "preferredHTTPSNavigationPolicy",
        "securityRestrictionMode",
    ]

    /// The runtime's documented call that makes a configured configuration (WebPolicyWebKit's
    /// `WKWebViewConfiguration(policy:)`), and the view made from one (`WKWebView(frame:policy:)`):
    /// known by type name and argument label, since apps have methods of their own named
    /// `makeWebViewConfiguration` and `configureWebView`.
    public static let runtimeConfigurationType = "WKWebViewConfiguration"
    public static let runtimeArgumentLabel = "policy"
}
