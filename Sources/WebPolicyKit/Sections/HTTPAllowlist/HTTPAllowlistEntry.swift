import WebPolicyRuntime

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

    /// The hosts the entry serves over plain http: what ATS exempts, what the engine matches.
    public var scope: HostScope { HostScope(pattern: host.value, includeSubdomains: includeSubdomains?.value ?? false) }
}
