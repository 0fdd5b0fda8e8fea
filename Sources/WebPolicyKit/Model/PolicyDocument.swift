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
    public var cookies: [CookieRule] = []
    public var interception: [InterceptionRule] = []

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
public struct HTTPAllowlistEntry: Sendable {
    public var location: SourceLocation
    public var host: LocatedString
    public var includeSubdomains: Located<Bool>?
    public var reason: LocatedString?
}

/// One non-web scheme the web view may hand to the system, optionally limited to hosts and
/// path prefixes (`navidapro://healthmagazin/details?...`).
public struct SchemeAllowlistEntry: Sendable {
    public var location: SourceLocation
    public var scheme: LocatedString
    public var hosts: Located<[LocatedString]>?
    public var paths: Located<[LocatedString]>?
    public var reason: LocatedString?
}

/// One cookie the app injects so the web app sees the native login.
public struct CookieRule: Sendable {
    public var location: SourceLocation
    public var name: LocatedString
    public var value: LocatedString
    public var domain: LocatedString
    public var hostOnly: Located<Bool>?
    public var path: LocatedString?
    public var secure: Located<Bool>?
    public var httpOnly: Located<Bool>?
    public var sameSite: Located<SameSite>?
    public var expires: LocatedString?
    public var maxAge: Located<Int>?
    public var via: Located<CookieDelivery>?
    public var description: LocatedString?
}

/// Requests the app answers itself: a custom scheme through `WKURLSchemeHandler`, or http(s)
/// hosts through interception (private API on WKWebView).
public struct InterceptionRule: Sendable {
    public var location: SourceLocation
    public var id: LocatedString?
    public var description: LocatedString?
    public var scheme: LocatedString
    public var hosts: Located<[LocatedString]>?
    public var paths: Located<[LocatedString]>?
    public var methods: Located<[Located<RequestMethod>]>?
    public var serve: LocatedString?
    public var handler: LocatedString?
}
