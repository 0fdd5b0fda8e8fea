import WebPolicyRuntime

/// One entry of `bridges:` — a script message handler the app registers, and who may call it.
public final class BridgeDeclaration: Sendable {
    public let location: SourceLocation
    /// `window.webkit.messageHandlers.<name>`.
    public let name: LocatedString
    /// Host patterns: `host` exactly, `*.host` its subdomains, `*` any host.
    public let origins: Located<[LocatedString]>?
    /// Over https unless this names http (or an app's own scheme).
    public let schemes: Located<[LocatedString]>?
    public let frames: Located<BridgeFrames>?
    public let world: LocatedString?
    public let reply: Located<Bool>?
    public let description: LocatedString?

    public init(location: SourceLocation, name: LocatedString, origins: Located<[LocatedString]>?, schemes: Located<[LocatedString]>? = nil,
                frames: Located<BridgeFrames>? = nil, world: LocatedString? = nil, reply: Located<Bool>? = nil, description: LocatedString? = nil) {
        self.location = location
        self.name = name
        self.origins = origins
        self.schemes = schemes
        self.frames = frames
        self.world = world
        self.reply = reply
        self.description = description
    }

    /// The schemes its origins admit, lowercase: https unless it says.
    public var schemeNames: [String] { schemes?.value.map { $0.value.lowercased() } ?? ["https"] }
    public var framesValue: BridgeFrames { frames?.value ?? .main }
    public var worldValue: ContentWorldName { ContentWorldName(world?.value ?? "page") }
    public var replyValue: Bool { reply?.value ?? false }

    /// The origins as the runtime matches them, each with its own location.
    public var runtimeOrigins: [Bridge.Origin] {
        (origins?.value ?? []).map { pattern in
            Bridge.Origin(host: pattern.value == "*" ? nil : Manifest.HostMatch(pattern: pattern.value), schemes: schemeNames, location: pattern.location)
        }
    }
}

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
