import WebPolicyRuntime

extension HTTPAllowlistEntry {
    /// The hosts the entry serves over plain http, as ATS reads it: `host` lowercased without
    /// its `*.`, and whether its subdomains come with it (`*.` or `include-subdomains`).
    var scope: (host: String, subdomains: Bool) {
        let written = host.value.lowercased()
        if written.hasPrefix("*.") { return (String(written.dropFirst(2)), true) }
        return (written, includeSubdomains?.value ?? false)
    }

    /// Whether a cookie for `domain` is meant for this entry's hosts: its domain is the entry's
    /// host, or lies under an entry that brings its subdomains.
    func isOwnHost(ofCookieDomain domain: String) -> Bool {
        let (base, subdomains) = scope
        return base == domain || (subdomains && HostNames.isWithin(domain, base))
    }
}
