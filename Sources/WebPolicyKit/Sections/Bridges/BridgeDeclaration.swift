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
