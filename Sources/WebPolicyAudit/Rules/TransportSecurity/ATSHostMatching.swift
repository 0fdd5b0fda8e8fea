import WebPolicyKit
import WebPolicyRuntime

/// How an ATS exception domain and an http-allowlist entry cover each other, as scopes
/// (`HostScope`): an exception domain is that domain, and its subdomains with
/// `NSIncludesSubdomains`; an allowlist entry is its `scope`.
enum ATSHostMatching {
    /// Some entry of the allowlist covers every host the exception exempts.
    static func allowlist(_ entries: [HTTPAllowlistEntry], covers domain: String, withSubdomains: Bool) -> Bool {
        let exempted = HostScope(host: domain, kind: withSubdomains ? .domainAndSubdomains : .exact)
        return entries.contains { $0.scope.covers(exempted) }
    }

    /// Some insecure exception of the plists exempts every host of the entry (the ATS fragment
    /// writes `*.x` as `x` with `NSIncludesSubdomains`, which exempts `x` too: more is fine).
    static func exceptions(_ domains: [InfoPlist.ExceptionDomain], cover entry: HTTPAllowlistEntry) -> Bool {
        domains.contains { exception in
            guard exception.allowsInsecureHTTPLoads?.value == true else { return false }
            let exempted = HostScope(host: exception.domain.value, kind: exception.includesSubdomains ? .domainAndSubdomains : .exact)
            return exempted.covers(entry.scope)
        }
    }
}
