import WebPolicyRuntime

extension HTTPAllowlistEntry {
    /// Whether a cookie for `domain` is meant for this entry's hosts: its domain is the entry's
    /// host, or lies under an entry that brings its subdomains.
    func isOwnHost(ofCookieDomain domain: String) -> Bool {
        scope.host == domain || (scope.includesSubdomains && HostScope.isWithin(domain, scope.host))
    }
}

extension HostScope {
    /// Some host is in both this scope and `domain` (and, with `subdomains`, its subdomains).
    func overlaps(domain: String, subdomains: Bool) -> Bool {
        intersects(HostScope(host: domain, kind: subdomains ? .domainAndSubdomains : .exact))
    }
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
