import WebPolicyRuntime

/// `webview:` — the web view's configuration, applied by the app's configurator before the
/// view exists. Absent keys keep the platform's defaults (`WebViewSettings`).
public struct WebViewSection: Sendable {
    public var location: SourceLocation
    public var javaScript: Located<Bool>?
    public var javaScriptCanOpenWindows: Located<Bool>?
    public var inspectable: Located<Bool>?
    /// `none`, or a folder of the app bundle.
    public var fileAccess: LocatedString?
    public var dataDetectors: Located<[Located<DataDetector>]>?
    public var upgradeKnownHostsToHTTPS: Located<Bool>?
    public var fraudulentWebsiteWarning: Located<Bool>?

    public init(location: SourceLocation) {
        self.location = location
    }

    /// The folder `file-access` names; nil for `none` or when unset.
    public var fileAccessFolder: String? {
        guard let value = fileAccess?.value, value != "none" else { return nil }
        return value
    }

    /// The settings the runtime applies.
    public var settings: WebViewSettings {
        var settings = WebViewSettings()
        settings.javaScript = javaScript?.value ?? true
        settings.javaScriptCanOpenWindows = javaScriptCanOpenWindows?.value ?? false
        settings.inspectable = inspectable?.value ?? false
        settings.fileAccess = fileAccessFolder
        settings.dataDetectors = dataDetectors?.value.map(\.value) ?? []
        settings.upgradeKnownHostsToHTTPS = upgradeKnownHostsToHTTPS?.value ?? true
        settings.fraudulentWebsiteWarning = fraudulentWebsiteWarning?.value ?? true
        settings.location = location
        settings.javaScriptLocation = javaScript?.location
        return settings
    }
}
