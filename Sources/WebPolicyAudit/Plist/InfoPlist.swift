import WebPolicyRuntime

/// The keys of an Info.plist or `.entitlements` file that the audit compares with a policy,
/// each with its place.
public struct InfoPlist: Sendable {
    public var path: String
    public var isEntitlements: Bool
    public var transportSecurity: TransportSecurity?
    /// `WKAppBoundDomains`: the array's place, and each entry.
    public var appBoundDomains: (location: SourceLocation, domains: [Located<String>])?
    /// `LSApplicationQueriesSchemes`.
    public var queriesSchemes: (location: SourceLocation, schemes: [Located<String>])?
    /// `CFBundleURLTypes[].CFBundleURLSchemes[]`: the app's own deep-link schemes.
    public var urlSchemes: [Located<String>] = []
    /// `get-task-allow` in an entitlements file.
    public var getTaskAllow: Located<Bool>?

    /// `NSAppTransportSecurity`.
    public struct TransportSecurity: Sendable {
        public var location: SourceLocation
        public var allowsArbitraryLoads: Located<Bool>?
        public var allowsArbitraryLoadsInWebContent: Located<Bool>?
        public var allowsArbitraryLoadsForMedia: Located<Bool>?
        public var allowsLocalNetworking: Located<Bool>?
        public var exceptionDomains: [ExceptionDomain] = []

        /// Since iOS 10, `NSAllowsArbitraryLoads` is ignored when any of the finer keys is
        /// present (Apple's NSAllowsArbitraryLoads documentation; ios-domain.md §1.2).
        public var arbitraryLoadsIgnored: Bool {
            allowsArbitraryLoadsInWebContent != nil || allowsArbitraryLoadsForMedia != nil || allowsLocalNetworking != nil
        }
    }

    public struct ExceptionDomain: Sendable {
        public var domain: Located<String>
        public var includesSubdomains: Bool
        /// `NSExceptionAllowsInsecureHTTPLoads` or the legacy `NSTemporaryExceptionAllowsInsecureHTTPLoads`.
        public var allowsInsecureHTTPLoads: Located<Bool>?
    }

    public init(path: String, isEntitlements: Bool) {
        self.path = path
        self.isEntitlements = isEntitlements
    }

    /// The keys of `root`, an Info.plist's or entitlements file's top-level dictionary.
    public init(path: String, isEntitlements: Bool, root: PlistNode) {
        self.init(path: path, isEntitlements: isEntitlements)
        func located(_ key: String, in node: PlistNode) -> Located<Bool>? {
            guard let entry = node.entries.last(where: { $0.key == key }), let value = entry.value.bool else { return nil }
            return Located(value, at: entry.keyLocation)
        }
        if let ats = root.entries.last(where: { $0.key == "NSAppTransportSecurity" }) {
            var security = TransportSecurity(location: ats.keyLocation)
            security.allowsArbitraryLoads = located("NSAllowsArbitraryLoads", in: ats.value)
            security.allowsArbitraryLoadsInWebContent = located("NSAllowsArbitraryLoadsInWebContent", in: ats.value)
            security.allowsArbitraryLoadsForMedia = located("NSAllowsArbitraryLoadsForMedia", in: ats.value)
            security.allowsLocalNetworking = located("NSAllowsLocalNetworking", in: ats.value)
            for entry in ats.value["NSExceptionDomains"]?.entries ?? [] {
                let insecure = located("NSExceptionAllowsInsecureHTTPLoads", in: entry.value)
                    ?? located("NSTemporaryExceptionAllowsInsecureHTTPLoads", in: entry.value)
                security.exceptionDomains.append(ExceptionDomain(
                    domain: Located(entry.key, at: entry.keyLocation),
                    includesSubdomains: entry.value["NSIncludesSubdomains"]?.bool ?? false,
                    allowsInsecureHTTPLoads: insecure))
            }
            transportSecurity = security
        }
        if let entry = root.entries.last(where: { $0.key == "WKAppBoundDomains" }) {
            appBoundDomains = (entry.keyLocation, entry.value.items.compactMap { item in item.string.map { Located($0, at: item.location) } })
        }
        if let entry = root.entries.last(where: { $0.key == "LSApplicationQueriesSchemes" }) {
            queriesSchemes = (entry.keyLocation, entry.value.items.compactMap { item in item.string.map { Located($0, at: item.location) } })
        }
        for type in root["CFBundleURLTypes"]?.items ?? [] {
            for scheme in type["CFBundleURLSchemes"]?.items ?? [] {
                if let value = scheme.string { urlSchemes.append(Located(value, at: scheme.location)) }
            }
        }
        getTaskAllow = located("get-task-allow", in: root)
    }

    /// Whether a value is an Xcode build-setting placeholder (`$(VAR)`, `${VAR}`): the real
    /// value is known only at build time, so it is never compared as written.
    public static func isPlaceholder(_ value: String) -> Bool {
        value.contains("$(") || value.contains("${")
    }
}
