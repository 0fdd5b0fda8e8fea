import WebPolicyRuntime

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
