// The closed vocabularies of the policy format: every enum the loader accepts, spelled as in
// policies. WebKit's own words are kept wherever a value ends up in content-blocker JSON.

/// A content rule's action (WebKit `loadAction`, research §1.3).
public enum ContentActionType: String, CaseIterable, Sendable {
    case block
    case blockCookies = "block-cookies"
    case cssDisplayNone = "css-display-none"
    case ignorePreviousRules = "ignore-previous-rules"
    case ignoreFollowingRules = "ignore-following-rules"
    case makeHTTPS = "make-https"
    case notify
    case redirect
    case modifyHeaders = "modify-headers"

    /// `ignore-previous-rules` and `ignore-following-rules`: they act on other rules' actions.
    public var isIgnoreRule: Bool { self == .ignorePreviousRules || self == .ignoreFollowingRules }
}

/// `resource-type` values (WebKit `ResourceLoadInfo.cpp` string table).
public enum ResourceType: String, CaseIterable, Sendable {
    case document
    case topDocument = "top-document"
    case childDocument = "child-document"
    case image
    case styleSheet = "style-sheet"
    case script
    case font
    case raw
    case svgDocument = "svg-document"
    case media
    case popup
    case ping
    case fetch
    case websocket
    case other
    case cspReport = "csp-report"
}

public enum LoadType: String, CaseIterable, Sendable {
    case firstParty = "first-party"
    case thirdParty = "third-party"
}

public enum LoadContext: String, CaseIterable, Sendable {
    case topFrame = "top-frame"
    case childFrame = "child-frame"
}

/// HTTP methods WebKit's `request-method` knows; policies may write them in any case, as WebKit
/// compares with `equalIgnoringASCIICase`.
public enum RequestMethod: String, CaseIterable, Sendable {
    case get, head, options, trace, put, delete, post, patch, connect
}

/// The trigger conditions, in the order WebKit's `checkCondition` examines them.
public enum ConditionKind: String, CaseIterable, Sendable {
    case ifDomain = "if-domain"
    case unlessDomain = "unless-domain"
    case ifTopURL = "if-top-url"
    case unlessTopURL = "unless-top-url"
    case ifFrameURL = "if-frame-url"
    case unlessFrameURL = "unless-frame-url"

    /// Whether the entries are domains (else url-filter regexes).
    public var takesDomains: Bool { self == .ifDomain || self == .unlessDomain }
    public var isIf: Bool { self == .ifDomain || self == .ifTopURL || self == .ifFrameURL }
}

public enum HeaderOperationType: String, CaseIterable, Sendable {
    case set, append, remove
}

public enum SameSite: String, CaseIterable, Sendable {
    case strict, lax, none
}

/// How a cookie reaches the web view (seed 001: WKHTTPCookieStore, a `Cookie` header on the
/// first request, or `document.cookie` from a user script at document start).
public enum CookieDelivery: String, CaseIterable, Sendable {
    case cookieStore = "cookie-store"
    case header
    case documentCookie = "document-cookie"
}

/// Where the app ships; App Store review changes what is acceptable (private API, ATS).
public enum Distribution: String, CaseIterable, Sendable {
    case appStore = "app-store"
    case enterprise
    case development
}
