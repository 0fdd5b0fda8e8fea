import WebPolicyRuntime

/// `app-bound-domains:` — Apple's App-Bound Domains (`WKAppBoundDomains` in Info.plist, and
/// `limitsNavigationsToAppBoundDomains` on the web views' configuration).
public struct AppBoundDomainsSection: Sendable {
    public var location: SourceLocation
    /// Domains, or `scheme:` entries, as the Info.plist lists them.
    public var domains: Located<[LocatedString]>?
    public var limitNavigations: Located<Bool>?

    public init(location: SourceLocation) {
        self.location = location
    }
}
