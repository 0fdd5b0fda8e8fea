/// The hosts a policy names by one pattern — `host` that host, `*.host` its subdomains,
/// `host` with `include-subdomains` both — as every stage reads it: the decision engine
/// matches requests with it, the compiler writes ATS keys and content-rule filters from it, lint
/// and the audit compare scopes with it. One value, so a pattern means one thing everywhere.
public struct HostScope: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case exact
        case subdomains
        case domainAndSubdomains = "domain-and-subdomains"
    }

    /// Lowercase, without the `*.` of a subdomain pattern.
    public var host: String
    public var kind: Kind

    public init(host: String, kind: Kind) {
        self.host = host.lowercased()
        self.kind = kind
    }

    /// `host` for that host only; `*.host` for its subdomains; `include-subdomains` for both.
    public init(pattern: String, includeSubdomains: Bool = false) {
        if pattern.hasPrefix("*.") {
            self.init(host: String(pattern.dropFirst(2)), kind: .subdomains)
        } else {
            self.init(host: pattern, kind: includeSubdomains ? .domainAndSubdomains : .exact)
        }
    }

    /// The host itself is in the scope (not for `*.host`).
    public var includesHost: Bool { kind != .subdomains }
    /// Its subdomains are (`*.host`, or `include-subdomains`).
    public var includesSubdomains: Bool { kind != .exact }

    /// Whether `candidate` (any case) is in the scope.
    public func matches(_ candidate: String) -> Bool {
        let candidate = candidate.lowercased()
        switch kind {
        case .exact: return candidate == host
        case .subdomains: return candidate.hasSuffix("." + host)
        case .domainAndSubdomains: return candidate == host || candidate.hasSuffix("." + host)
        }
    }

    /// Every host of `other` is in this scope.
    public func covers(_ other: HostScope) -> Bool {
        if other.includesHost && !matches(other.host) { return false }
        guard other.includesSubdomains else { return true }
        // Every subdomain of `other.host` is a subdomain of `host` (or `host` itself does not
        // count: a subdomain of a subdomain is never the apex).
        return includesSubdomains && Self.isWithin(other.host, host)
    }

    /// Some host is in both scopes.
    public func intersects(_ other: HostScope) -> Bool {
        if includesHost && other.matches(host) { return true }
        if other.includesHost && matches(other.host) { return true }
        // Two subdomain scopes share the subdomains of the deeper one.
        return includesSubdomains && other.includesSubdomains && (Self.isWithin(host, other.host) || Self.isWithin(other.host, host))
    }

    /// A host of the scope, to ask questions of (its registrable domain): the host, or a
    /// subdomain of it.
    public var sampleHost: String { includesHost ? host : "www." + host }

    /// `host` is `domain` or one of its subdomains (both lowercase).
    public static func isWithin(_ host: String, _ domain: String) -> Bool {
        host == domain || host.hasSuffix("." + domain)
    }
}

extension Manifest {
    /// A host as the policy names it, in the manifest: the runtime's `HostScope`.
    public typealias HostMatch = HostScope
}
