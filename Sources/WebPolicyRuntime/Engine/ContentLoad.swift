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

    /// What a list checks of a load besides its URL: its flags as bits, and the strings the
    /// `if-top-url`/`if-frame-url` conditions and domains match.
    struct Facts {
        let typeBit: UInt32
        let loadTypeBit: UInt32
        let contextBit: UInt32
        /// The method's position (`RequestMethod.ordinal`), -1 for none.
        let methodOrdinal: Int32
        let topString: String
        let frameString: String

        init(resourceType: ResourceType, isThirdParty: Bool, isMainFrame: Bool, method: RequestMethod?, topString: String, frameString: String) {
            typeBit = FlagMask.bit(resourceType)
            loadTypeBit = FlagMask.bit(isThirdParty ? LoadType.thirdParty : .firstParty)
            contextBit = FlagMask.bit(isMainFrame ? LoadContext.topFrame : .childFrame)
            methodOrdinal = method.map { Int32($0.ordinal) } ?? -1
            self.topString = topString
            self.frameString = frameString
        }
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
        facts = Facts(resourceType: resourceType, isThirdParty: isThirdParty, isMainFrame: isMainFrame, method: method,
                      topString: topString, frameString: frameURL == topURL ? topString : frameURL.description)
    }
}

