import WebPolicyRuntime

/// `navigation:` — where a web view may go: the documents its main frame and its iframes may
/// show, what a link elsewhere does, and what new windows do.
public struct NavigationSection: Sendable {
    public var location: SourceLocation
    public var pages: [NavigationEntry] = []
    /// `pages` entries by scheme alone: the app's own pages, served on its own scheme.
    public var schemePages: [NavigationSchemePage] = []
    public var frames: [NavigationEntry] = []
    public var otherwise: Located<NavigationOtherwise>?
    public var newWindows: Located<NewWindowPolicy>?

    public init(location: SourceLocation) {
        self.location = location
    }
}

/// One entry of `navigation.pages` or `navigation.frames`: documents of a host pattern (as in
/// the http allowlist), over https unless `schemes` names http, under path prefixes.
public final class NavigationEntry: Sendable {
    public let location: SourceLocation
    public let host: LocatedString
    public let includeSubdomains: Located<Bool>?
    public let paths: Located<[LocatedString]>?
    public let schemes: Located<[LocatedString]>?
    public let reason: LocatedString?

    public init(location: SourceLocation, host: LocatedString, includeSubdomains: Located<Bool>? = nil, paths: Located<[LocatedString]>? = nil,
                schemes: Located<[LocatedString]>? = nil, reason: LocatedString? = nil) {
        self.location = location
        self.host = host
        self.includeSubdomains = includeSubdomains
        self.paths = paths
        self.schemes = schemes
        self.reason = reason
    }

    /// The schemes the entry admits, lowercase: https unless it says.
    public var schemeNames: [String] { schemes?.value.map { $0.value.lowercased() } ?? ["https"] }

    /// The hosts the entry names, as the decision engine matches them.
    public var scope: HostScope { HostScope(pattern: host.value, includeSubdomains: includeSubdomains?.value ?? false) }
}

/// A `navigation.pages` entry by scheme alone (`- scheme: zim`): every page on a scheme the app
/// serves itself (`interception`) — an offline reader's, a bundled site's.
public final class NavigationSchemePage: Sendable {
    public let location: SourceLocation
    public let scheme: LocatedString
    public let reason: LocatedString?

    public init(location: SourceLocation, scheme: LocatedString, reason: LocatedString? = nil) {
        self.location = location
        self.scheme = scheme
        self.reason = reason
    }

    /// Lowercase.
    public var schemeName: String { scheme.value.lowercased() }
}
