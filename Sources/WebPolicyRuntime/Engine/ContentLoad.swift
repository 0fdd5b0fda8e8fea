import URLFilter

/// One load as WebKit's content blockers see it (`ResourceLoadInfo`).
public struct ContentLoad: Sendable {
    public var url: CanonicalURL
    /// A concrete type: never `document`, `raw` (which stand for several).
    public var resourceType: ResourceType
    /// The main document's URL; for a top-level navigation, the URL being loaded.
    public var topURL: CanonicalURL
    /// The URL of the frame that makes the request.
    public var frameURL: CanonicalURL
    /// Whether the initiating frame is the main frame (`load-context`).
    public var isMainFrame: Bool
    /// nil for a method WebKit does not know, which no `request-method` trigger matches.
    public var method: RequestMethod?
    public var isThirdParty: Bool
    /// The string the URL matchers run on, built once per load.
    let urlString: String
    let facts: Facts
    let frames: Frames

    /// What a list checks of a load besides its URL and its frames' URLs: its flags as bits.
    struct Facts: BitwiseCopyable {
        let typeBit: UInt32
        let loadTypeBit: UInt32
        let contextBit: UInt32
        /// The method's position (`RequestMethod.ordinal`), -1 for none.
        let methodOrdinal: Int32

        init(resourceType: ResourceType, isThirdParty: Bool, isMainFrame: Bool, method: RequestMethod?) {
            typeBit = FlagMask.bit(resourceType)
            loadTypeBit = FlagMask.bit(isThirdParty ? LoadType.thirdParty : .firstParty)
            contextBit = FlagMask.bit(isMainFrame ? LoadContext.topFrame : .childFrame)
            methodOrdinal = method.map { Int32($0.ordinal) } ?? -1
        }
    }

    /// The strings the `if-top-url`/`if-frame-url` conditions and domains match: the same for
    /// every load a frame makes, so a page's loads share one (kept apart from `Facts`, a
    /// counted load borrows its page's instead of copying two strings for every request).
    struct Frames: Sendable {
        let top: String
        let frame: String
    }

    public init(url: CanonicalURL, resourceType: ResourceType, topURL: CanonicalURL, frameURL: CanonicalURL, isMainFrame: Bool, method: RequestMethod?, isThirdParty: Bool) {
        self.url = url
        self.resourceType = resourceType
        self.topURL = topURL
        self.frameURL = frameURL
        self.isMainFrame = isMainFrame
        self.method = method
        self.isThirdParty = isThirdParty
        // WebKit drops the fragment before it checks a subresource or a navigation, but a
        // hyperlink-auditing ping (PingLoader) and window.open's popup check see the URL as
        // written (observed on WebKitGTK 2.50, ci/webkit-conformance).
        urlString = resourceType == .ping || resourceType == .popup ? url.description : url.requestString
        let topString = topURL.description
        facts = Facts(resourceType: resourceType, isThirdParty: isThirdParty, isMainFrame: isMainFrame, method: method)
        frames = Frames(top: topString, frame: frameURL == topURL ? topString : frameURL.description)
    }
}

