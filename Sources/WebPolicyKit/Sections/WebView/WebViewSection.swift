import WebPolicyRuntime

/// `webview:` — the web view's configuration, applied by the app's configurator before the
/// view exists. Absent keys keep the platform's defaults (`WebViewSettings`).
public struct WebViewSection: Sendable {
    public var location: SourceLocation
    /// Each on/off setting the file writes, by its policy key (a `WebViewSettingCatalogue` row).
    public var booleans: [String: Located<Bool>] = [:]
    /// `none`, or a folder of the app bundle.
    public var fileAccess: LocatedString?
    public var dataDetectors: Located<[Located<DataDetector>]>?
    /// The web-page preferences, by policy key (`WebViewSecurity.swift`).
    public var choices: [String: LocatedString] = [:]
    public var dataStore: Located<WebsiteDataStoreChoice>?
    /// `none` is an empty list.
    public var webExtensions: Located<[LocatedString]>?
    public var permissions: Located<[PermissionDeclaration]>?

    public init(location: SourceLocation) {
        self.location = location
    }

    /// The value the file writes for a setting; nil where it keeps the platform's default.
    public subscript(setting: WebViewBooleanSetting) -> Located<Bool>? {
        get { booleans[setting.key] }
        set { booleans[setting.key] = newValue }
    }

    // The settings lint and the audit reason about by name.
    public var javaScript: Located<Bool>? { booleans["javascript"] }
    public var javaScriptCanOpenWindows: Located<Bool>? { booleans["javascript-can-open-windows"] }
    public var inspectable: Located<Bool>? { booleans["inspectable"] }
    public var upgradeKnownHostsToHTTPS: Located<Bool>? { booleans["upgrade-known-hosts-to-https"] }
    public var fraudulentWebsiteWarning: Located<Bool>? { booleans["fraudulent-website-warning"] }

    /// The folder `file-access` names; nil for `none` or when unset.
    public var fileAccessFolder: String? {
        guard let value = fileAccess?.value, value != "none" else { return nil }
        return value
    }

    /// The settings the runtime applies: each on/off row as written or at its default.
    public var settings: WebViewSettings {
        var settings = WebViewSettings()
        for row in WebViewSettingCatalogue.booleans {
            settings[keyPath: row.setting] = self[row]?.value ?? row.defaultValue
        }
        settings.fileAccess = fileAccessFolder
        settings.dataDetectors = dataDetectors?.value.map(\.value) ?? []
        applySecurity(to: &settings)
        settings.location = location
        settings.javaScriptLocation = javaScript?.location
        return settings
    }
}
