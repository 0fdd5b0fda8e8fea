import WebPolicyRuntime

/// The hosts a navigation entry names, as the decision engine matches them
/// (`Manifest.HostMatch`): a host, its subdomains, or both.
struct NavigationScope: Sendable {
    let host: String
    let includesHost: Bool
    let includesSubdomains: Bool

    init(_ entry: NavigationEntry) {
        self.init(pattern: entry.host.value, includeSubdomains: entry.includeSubdomains?.value ?? false)
    }

    /// `host`, or `*.host` for its subdomains (with `includeSubdomains`, the host and them).
    init(pattern: String, includeSubdomains: Bool = false) {
        let written = pattern.lowercased()
        if written.hasPrefix("*.") {
            (host, includesHost, includesSubdomains) = (String(written.dropFirst(2)), false, true)
        } else {
            (host, includesHost, includesSubdomains) = (written, true, includeSubdomains)
        }
    }

    /// Some host is in both scopes.
    func intersects(_ other: NavigationScope) -> Bool {
        if includesHost && other.includesHost && host == other.host { return true }
        if includesHost && other.includesSubdomains && host != other.host && HostNames.isWithin(host, other.host) { return true }
        if other.includesHost && includesSubdomains && host != other.host && HostNames.isWithin(other.host, host) { return true }
        return includesSubdomains && other.includesSubdomains && (HostNames.isWithin(host, other.host) || HostNames.isWithin(other.host, host))
    }

    /// Some host is in both this scope and `domain` (and, with `subdomains`, its subdomains).
    func overlaps(domain: String, subdomains: Bool) -> Bool {
        if includesHost && (host == domain || (subdomains && HostNames.isWithin(host, domain))) { return true }
        guard includesSubdomains else { return false }
        // A subdomain of `host` that is `domain`, or one under it.
        if HostNames.isWithin(domain, host) && domain != host { return true }
        return subdomains && HostNames.isWithin(host, domain)
    }

    /// A host of the scope, to ask questions of (its registrable domain): the host, or a
    /// subdomain of it.
    var sampleHost: String { includesHost ? host : "www." + host }
}

extension Policy {
    /// What WebKit keeps of each `app-bound-domains` entry (`AppBoundDomains.boundValues`), with
    /// the entry; nil without the section or the Public Suffix List.
    func appBoundValues(_ suffixes: PublicSuffixList) -> [(entry: LocatedString, bound: String?)]? {
        guard let domains = appBoundDomains?.domains?.value else { return nil }
        let values = AppBoundDomains(entries: domains.map(\.value), limitNavigations: false).boundValues(suffixes)
        return Array(zip(domains, values))
    }
}
