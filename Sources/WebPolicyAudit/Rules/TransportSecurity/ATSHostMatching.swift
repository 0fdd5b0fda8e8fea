import WebPolicyKit

/// How an ATS exception domain and an http-allowlist entry cover each other: a domain covers
/// itself, and its subdomains with `NSIncludesSubdomains`; an allowlist entry covers its host,
/// and subdomains with `*.` or `include-subdomains: true`.
enum ATSHostMatching {
    static func allowlist(_ entries: [HTTPAllowlistEntry], covers domain: String, withSubdomains: Bool) -> Bool {
        let domain = domain.lowercased()
        return entries.contains { entry in
            let host = entry.host.value.lowercased()
            let subdomains = host.hasPrefix("*.") || entry.includeSubdomains?.value == true
            let base = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
            if withSubdomains { return subdomains && (domain == base || domain.hasSuffix("." + base)) }
            return domain == base ? !host.hasPrefix("*.") || entry.includeSubdomains?.value == true : subdomains && domain.hasSuffix("." + base)
        }
    }

    static func exceptions(_ domains: [InfoPlist.ExceptionDomain], cover host: String) -> Bool {
        let host = host.lowercased()
        let base = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
        return domains.contains { exception in
            guard exception.allowsInsecureHTTPLoads?.value == true else { return false }
            let domain = exception.domain.value.lowercased()
            return domain == base || (exception.includesSubdomains && base.hasSuffix("." + domain))
        }
    }
}
