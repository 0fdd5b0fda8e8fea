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

/// A vocabulary whose values have a position, known without searching `allCases` (which
/// builds its array on every call): the simulator turns flags into bits for every request.
package protocol Ordinal: CaseIterable, Equatable {
    /// The value's position in `allCases`.
    var ordinal: Int { get }
}

extension ContentActionType: Ordinal {
    package var ordinal: Int {
        switch self {
        case .block: return 0
        case .blockCookies: return 1
        case .cssDisplayNone: return 2
        case .ignorePreviousRules: return 3
        case .ignoreFollowingRules: return 4
        case .makeHTTPS: return 5
        case .notify: return 6
        case .redirect: return 7
        case .modifyHeaders: return 8
        }
    }
}

extension ResourceType: Ordinal {
    package var ordinal: Int {
        switch self {
        case .document: return 0
        case .topDocument: return 1
        case .childDocument: return 2
        case .image: return 3
        case .styleSheet: return 4
        case .script: return 5
        case .font: return 6
        case .raw: return 7
        case .svgDocument: return 8
        case .media: return 9
        case .popup: return 10
        case .ping: return 11
        case .fetch: return 12
        case .websocket: return 13
        case .other: return 14
        case .cspReport: return 15
        }
    }
}

extension LoadType: Ordinal {
    package var ordinal: Int { self == .firstParty ? 0 : 1 }
}

extension LoadContext: Ordinal {
    package var ordinal: Int { self == .topFrame ? 0 : 1 }
}

extension RequestMethod: Ordinal {
    package var ordinal: Int {
        switch self {
        case .get: return 0
        case .head: return 1
        case .options: return 2
        case .trace: return 3
        case .put: return 4
        case .delete: return 5
        case .post: return 6
        case .patch: return 7
        case .connect: return 8
        }
    }
}

/// What a request's verdict can be, in the order the pipeline decides (docs/semantics.md).
public enum Verdict: String, CaseIterable, Sendable {
    case allow, block, upgrade, intercept
}

extension Verdict: Ordinal {
    package var ordinal: Int {
        switch self {
        case .allow: return 0
        case .block: return 1
        case .upgrade: return 2
        case .intercept: return 3
        }
    }
}

extension ResourceType {
    /// The load types a `resource-type` value stands for (WebKit `ResourceLoadInfo.cpp`).
    package static func expanded(_ type: ResourceType) -> [ResourceType] {
        switch type {
        case .document: return [.topDocument, .childDocument]
        case .raw: return [.fetch, .websocket, .other, .ping]
        case .other: return [.other, .ping, .cspReport]
        default: return [type]
        }
    }
}
