import WebPolicyRuntime

/// What one policy file says, section by section, every value with its location. Built by
/// `PolicyDecoder`; `Policy` merges a document with the files it includes.
public struct PolicyDocument: Sendable {
    public var file: SourceFile
    public var version: Located<Int>?
    public var name: LocatedString?
    public var description: LocatedString?
    public var target: Target?
    public var includes: [LocatedString] = []
    public var httpAllowlist: [HTTPAllowlistEntry] = []
    public var schemeAllowlist: [SchemeAllowlistEntry] = []
    public var contentRules: [ContentRule] = []
    public var contentRuleLists: [ContentRuleListReference] = []
    public var cookies: [CookieRule] = []
    public var interception: [InterceptionRule] = []
    public var navigation: NavigationSection?
    public var appBoundDomains: AppBoundDomainsSection?
    public var bridges: [BridgeDeclaration] = []
    public var webView: WebViewSection?

    public init(file: SourceFile) {
        self.file = file
    }
}

/// `target:` — what the policy ships to.
public struct Target: Sendable {
    public var location: SourceLocation
    public var ios: Located<OSVersion>?
    public var distribution: Located<Distribution>?
}

/// One plain-http host the web view may load (ATS `NSExceptionAllowsInsecureHTTPLoads`).
public final class HTTPAllowlistEntry: Sendable {
    public let location: SourceLocation
    public let host: LocatedString
    public let includeSubdomains: Located<Bool>?
    public let reason: LocatedString?

    public init(
        location: SourceLocation,
        host: LocatedString,
        includeSubdomains: Located<Bool>? = nil,
        reason: LocatedString? = nil
    ) {
        self.location = location
        self.host = host
        self.includeSubdomains = includeSubdomains
        self.reason = reason
    }
}

/// One non-web scheme the web view may hand to the system, optionally limited to hosts and
/// path prefixes (`navidapro://healthmagazin/details?...`).
public final class SchemeAllowlistEntry: Sendable {
    public let location: SourceLocation
    public let scheme: LocatedString
    public let hosts: Located<[LocatedString]>?
    public let paths: Located<[LocatedString]>?
    public let reason: LocatedString?

    public init(
        location: SourceLocation,
        scheme: LocatedString,
        hosts: Located<[LocatedString]>? = nil,
        paths: Located<[LocatedString]>? = nil,
        reason: LocatedString? = nil
    ) {
        self.location = location
        self.scheme = scheme
        self.hosts = hosts
        self.paths = paths
        self.reason = reason
    }
}

/// One cookie the app injects so the web app sees the native login.
public final class CookieRule: Sendable {
    public let location: SourceLocation
    public let name: LocatedString
    public let value: LocatedString
    public let domain: LocatedString
    public let hostOnly: Located<Bool>?
    public let path: LocatedString?
    public let secure: Located<Bool>?
    public let httpOnly: Located<Bool>?
    public let sameSite: Located<SameSite>?
    public let expires: LocatedString?
    public let maxAge: Located<Int>?
    public let via: Located<CookieDelivery>?
    public let description: LocatedString?

    public init(
        location: SourceLocation,
        name: LocatedString,
        value: LocatedString,
        domain: LocatedString,
        hostOnly: Located<Bool>? = nil,
        path: LocatedString? = nil,
        secure: Located<Bool>? = nil,
        httpOnly: Located<Bool>? = nil,
        sameSite: Located<SameSite>? = nil,
        expires: LocatedString? = nil,
        maxAge: Located<Int>? = nil,
        via: Located<CookieDelivery>? = nil,
        description: LocatedString? = nil
    ) {
        self.location = location
        self.name = name
        self.value = value
        self.domain = domain
        self.hostOnly = hostOnly
        self.path = path
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
        self.expires = expires
        self.maxAge = maxAge
        self.via = via
        self.description = description
    }
}

/// Requests the app answers itself: a custom scheme through `WKURLSchemeHandler`, or http(s)
/// hosts through interception (private API on WKWebView).
public final class InterceptionRule: Sendable {
    public let location: SourceLocation
    public let id: LocatedString?
    public let description: LocatedString?
    public let scheme: LocatedString
    public let hosts: Located<[LocatedString]>?
    public let paths: Located<[LocatedString]>?
    public let methods: Located<[Located<RequestMethod>]>?
    public let serve: LocatedString?
    public let handler: LocatedString?

    public init(
        location: SourceLocation,
        id: LocatedString? = nil,
        description: LocatedString? = nil,
        scheme: LocatedString,
        hosts: Located<[LocatedString]>? = nil,
        paths: Located<[LocatedString]>? = nil,
        methods: Located<[Located<RequestMethod>]>? = nil,
        serve: LocatedString? = nil,
        handler: LocatedString? = nil
    ) {
        self.location = location
        self.id = id
        self.description = description
        self.scheme = scheme
        self.hosts = hosts
        self.paths = paths
        self.methods = methods
        self.serve = serve
        self.handler = handler
    }
}
