import WebPolicyRuntime

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
