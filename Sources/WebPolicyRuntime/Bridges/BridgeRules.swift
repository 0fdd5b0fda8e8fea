/// `bridges:` as the manifest carries them: the script message handlers the app registers
/// (`WKUserContentController.add(_:contentWorld:name:)`), and who may call each.
///
/// WebKit defines a handler "in all frames in all web views that use the user content
/// controller" (OWASP MASTG-TEST-0078) — every page the view shows, every iframe — so who may
/// call it is the app's to check, on `WKScriptMessage.frameInfo`. A bridge says so where a
/// reviewer, lint and simulate can see it.
public struct Bridge: Sendable, Equatable {
    /// The handler's name: `window.webkit.messageHandlers.<name>`.
    public var name: String
    /// The origins whose frames may call it; empty admits none.
    public var origins: [Origin]
    public var frames: BridgeFrames
    public var world: ContentWorldName
    /// Registered as a `WKScriptMessageHandlerWithReply`: `postMessage` returns a promise.
    public var reply: Bool
    public var location: SourceLocation?
    /// Where `frames` and `origins` are written, for reasons; nil: the bridge's own location.
    public var framesLocation: SourceLocation?
    public var originsLocation: SourceLocation?

    public init(name: String, origins: [Origin], frames: BridgeFrames = .main, world: ContentWorldName = .page, reply: Bool = false,
                location: SourceLocation? = nil, framesLocation: SourceLocation? = nil, originsLocation: SourceLocation? = nil) {
        self.name = name
        self.origins = origins
        self.frames = frames
        self.world = world
        self.reply = reply
        self.location = location
        self.framesLocation = framesLocation
        self.originsLocation = originsLocation
    }

    /// Frames of a host pattern, over https unless `schemes` says otherwise.
    public struct Origin: Sendable, Equatable {
        /// nil: any host (`*`).
        public var host: Manifest.HostMatch?
        /// Lowercase.
        public var schemes: [String]
        public var location: SourceLocation?

        public init(host: Manifest.HostMatch?, schemes: [String] = ["https"], location: SourceLocation? = nil) {
            self.host = host
            self.schemes = schemes.map { $0.lowercased() }
            self.location = location
        }

        /// A frame's security origin (its document's scheme and host) is one of these. The
        /// port is not compared for a host: a bridge names hosts, as the http allowlist does;
        /// a role is its bound origin, port and all. `bindings`: the roles bound now.
        public func admits(_ url: CanonicalURL, bindings: HostBindings = HostBindings()) -> Bool {
            guard schemes.contains(url.scheme) else { return false }
            guard let pattern = self.host else { return true }
            return pattern.matches(url, in: bindings)
        }

        /// `'*.shop.example.com'`, `'*'`; with its schemes when they are not https alone.
        public var described: String { described(in: HostBindings()) }

        /// As `described`, with what a role origin is bound to.
        public func described(in bindings: HostBindings) -> String {
            let pattern = host?.described(in: bindings) ?? "'*'"
            return schemes == ["https"] ? pattern : pattern + " (\(schemes.joined(separator: ", ")))"
        }
    }
}

/// Which frames may call a bridge (`frames:`): the main frame's document only, or iframes too.
public enum BridgeFrames: String, Sendable, CaseIterable {
    case main
    case all
}

/// The frame a message comes from.
public enum MessageFrame: String, Sendable, CaseIterable {
    case main
    case child
}

/// A `WKContentWorld`: `page` (the page's own scripts), `client` (`.defaultClient`, the app's
/// scripts, invisible to the page), or a world the app names (`.world(name:)`). A handler
/// added in one world is invisible to scripts of the others.
public struct ContentWorldName: Sendable, Hashable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public static let page = ContentWorldName("page")
    public static let client = ContentWorldName("client")

    /// Neither `page` nor `client`: a world of the app's own name.
    public var isNamed: Bool { self != .page && self != .client }
    public var description: String { name }
}

/// A script message as the app's handler receives it: the sending frame's document (its
/// security origin is what counts), whether that frame is the main frame, the handler it was
/// posted to and the content world it was posted from.
public struct ScriptMessage: Sendable {
    public var frameURL: CanonicalURL
    public var frame: MessageFrame
    public var handler: String
    public var world: ContentWorldName

    public init(frameURL: CanonicalURL, frame: MessageFrame = .main, handler: String, world: ContentWorldName = .page) {
        self.frameURL = frameURL
        self.frame = frame
        self.handler = handler
        self.world = world
    }
}
