/// `app-bound-domains:`, as WebKit reads `WKAppBoundDomains` (`WebsiteDataStoreCocoa.mm`,
/// `initializeAppBoundDomains`): at most ten entries; one ending in `:` names a scheme; any
/// other is read as a URL (https when it has no scheme) and kept as its registrable domain —
/// `shop.example.com` binds all of `example.com`.
public struct AppBoundDomains: Sendable, Equatable {
    /// As written, in order (the Info.plist's `WKAppBoundDomains`).
    public var entries: [String]
    /// `limitsNavigationsToAppBoundDomains` on the web views' configuration.
    public var limitNavigations: Bool
    public var location: SourceLocation?

    /// WebKit reads no more than this many entries (`maxAppBoundDomainCount`).
    public static let maximumCount = 10

    public init(entries: [String], limitNavigations: Bool, location: SourceLocation? = nil) {
        self.entries = entries
        self.limitNavigations = limitNavigations
        self.location = location
    }

    /// What WebKit keeps of each entry, in order: a `scheme:` entry's scheme (with its colon),
    /// any other entry's registrable domain; nil past the first ten and for an entry that is
    /// not a URL, which WebKit drops.
    public func boundValues(_ suffixes: PublicSuffixList) -> [String?] {
        var kept = 0
        return entries.map { entry -> String? in
            guard kept < Self.maximumCount else { return nil }
            if entry.hasSuffix(":"), entry.count > 1 {
                kept += 1
                return entry.lowercased()
            }
            let text = entry.contains("://") ? entry : "https://" + entry
            guard let url = try? CanonicalURL.parse(text).get(), let host = url.host else { return nil }
            kept += 1
            // `RegistrableDomain` falls back on the host itself where it has no registrable
            // domain (localhost, an address, a public suffix).
            let domain = suffixes.registrableDomain(of: host)
            return domain.isEmpty ? host : domain
        }
    }

    /// `schemeOrDomainIsAppBound`, with what WebKit treats as app-bound in the main frame
    /// whatever the list says (`shouldTreatURLProtocolAsAppBound`: localhost and loopback
    /// addresses, about:, data:, blob:, file:, javascript:). The entry named is the first one
    /// whose scheme or registrable domain it is, for coverage.
    /// `bound`: `boundValues` of the entries.
    static func check(_ url: CanonicalURL, bound: [String?], domain: (String) -> String) -> AppBoundCheck {
        if let index = bound.firstIndex(of: url.scheme + ":") { return .boundBy(index) }
        if let host = url.host {
            let registrable = domain(host)
            if let index = bound.firstIndex(of: registrable.isEmpty ? host : registrable) { return .boundBy(index) }
        }
        if WebKitSchemes.alwaysAppBound.contains(url.scheme) { return .alwaysBound }
        if let host = url.host, host == "localhost" || host.hasSuffix(".localhost") || host == "[::1]" || IPv4.canonical(host).map({ $0.hasPrefix("127.") }) == true {
            return .alwaysBound
        }
        return .unbound
    }
}
