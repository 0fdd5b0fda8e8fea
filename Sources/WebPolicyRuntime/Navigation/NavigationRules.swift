/// Where a web view may go (the policy's `navigation:`) and Apple's App-Bound Domains
/// (`app-bound-domains:`), as the manifest carries them to the decision engine.
public struct NavigationRules: Sendable, Equatable {
    /// Documents the main frame may show.
    public var pages: [Entry] = []
    /// Documents iframes may show besides `pages`.
    public var frames: [Entry] = []
    /// Pages the app serves itself, on its own schemes (`- scheme: zim` under `pages`).
    public var pageSchemes: [SchemePage] = []
    public var otherwise: NavigationOtherwise = .openExternally
    public var newWindows: NewWindowPolicy = .sameView
    /// Where `navigation:` is written, for reasons that name the section.
    public var location: SourceLocation?
    /// Where `otherwise` and `new-windows` are written, when they are (else the defaults
    /// decide, and reasons name the section).
    public var otherwiseLocation: SourceLocation?
    public var newWindowsLocation: SourceLocation?

    public init(pages: [Entry] = [], frames: [Entry] = [], pageSchemes: [SchemePage] = [], otherwise: NavigationOtherwise = .openExternally,
                newWindows: NewWindowPolicy = .sameView,
                location: SourceLocation? = nil, otherwiseLocation: SourceLocation? = nil, newWindowsLocation: SourceLocation? = nil) {
        self.pages = pages
        self.frames = frames
        self.pageSchemes = pageSchemes
        self.otherwise = otherwise
        self.newWindows = newWindows
        self.location = location
        self.otherwiseLocation = otherwiseLocation
        self.newWindowsLocation = newWindowsLocation
    }

    /// Documents of a host pattern, over https unless `schemes` says otherwise, under path
    /// prefixes when `paths` names them.
    public struct Entry: Sendable, Equatable {
        public var host: Manifest.HostMatch
        /// Lowercase; `["https"]` unless the policy names others.
        public var schemes: [String]
        /// nil: any path; else one of these as a prefix.
        public var paths: [String]?
        public var location: SourceLocation?

        public init(host: Manifest.HostMatch, schemes: [String] = ["https"], paths: [String]? = nil, location: SourceLocation? = nil) {
            self.host = host
            self.schemes = schemes.map { $0.lowercased() }
            self.paths = paths
            self.location = location
        }

        /// `bindings`: the roles bound now, for an entry that names one.
        public func admits(_ url: CanonicalURL, bindings: HostBindings = HostBindings()) -> Bool {
            guard schemes.contains(url.scheme), self.host.matches(url, in: bindings) else { return false }
            guard let paths else { return true }
            return paths.contains { url.path.hasPrefix($0) }
        }

        /// `'*.shop.example.com'` or `'pay.example.com' /checkout`, for reasons.
        public var described: String { described(in: HostBindings()) }

        /// As `described`, with what a role entry is bound to: `'${server}' (bound to https://ha.example.com)`.
        public func described(in bindings: HostBindings) -> String {
            host.described(in: bindings) + (paths.map { " " + $0.joined(separator: ", ") } ?? "")
        }
    }

    /// The app's own pages on a scheme it serves (`interception`): any URL of that scheme, in
    /// the main frame or an iframe.
    public struct SchemePage: Sendable, Equatable {
        /// Lowercase.
        public var scheme: String
        public var location: SourceLocation?

        public init(scheme: String, location: SourceLocation? = nil) {
            self.scheme = scheme.lowercased()
            self.location = location
        }

        /// `'scheme: zim'`, for reasons.
        public var described: String { "'scheme: \(scheme)'" }
    }
}
