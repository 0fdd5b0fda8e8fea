/// The hosts a policy names by one pattern — `host` that host, `*.host` its subdomains,
/// `host` with `include-subdomains` both — as every stage reads it: the decision engine
/// matches requests with it, the compiler writes ATS keys and content-rule filters from it, lint
/// and the audit compare scopes with it. One value, so a pattern means one thing everywhere.
///
/// `${server}` names a role of `runtime-hosts:` instead of a host: the host the app binds the
/// role to at run time (`HostBindings`), and no host while it is unbound. It means the bound
/// origin exactly — that host, that port, that scheme (or its WebSocket twin) — and its
/// subdomains only when the pattern says so (`*.${server}`, `include-subdomains`).
public struct HostScope: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case exact
        case subdomains
        case domainAndSubdomains = "domain-and-subdomains"
    }

    /// Lowercase, without the `*.` of a subdomain pattern; empty for a role.
    public var host: String
    public var kind: Kind
    /// The `runtime-hosts` role the pattern names (`server` for `${server}`); nil: a host.
    public var role: String?

    public init(host: String, kind: Kind) {
        self.host = host.lowercased()
        self.kind = kind
    }

    /// The host bound to `role` at run time.
    public init(role: String, kind: Kind) {
        host = ""
        self.kind = kind
        self.role = role
    }

    /// `host` for that host only; `*.host` for its subdomains; `include-subdomains` for both;
    /// `${role}` (and `*.${role}`) for the host bound to a role.
    public init(pattern: String, includeSubdomains: Bool = false) {
        let subdomains = pattern.hasPrefix("*.")
        let rest = subdomains ? String(pattern.dropFirst(2)) : pattern
        let kind: Kind = subdomains ? .subdomains : includeSubdomains ? .domainAndSubdomains : .exact
        if let role = Self.roleName(rest) {
            self.init(role: role, kind: kind)
        } else {
            self.init(host: rest, kind: kind)
        }
    }

    /// `server` for `${server}`; nil for anything else.
    public static func roleName(_ text: String) -> String? {
        guard text.hasPrefix("${"), text.hasSuffix("}"), text.count > 3 else { return nil }
        return String(text.dropFirst(2).dropLast())
    }

    /// The pattern as a policy writes it: `*.example.com`, `${server}`.
    public var written: String {
        let name = role.map { "${\($0)}" } ?? host
        return kind == .subdomains ? "*." + name : name
    }

    /// The host `matches` compares with: the bound host for a role (nil while unbound).
    public func resolvedHost(in bindings: HostBindings) -> String? {
        guard let role else { return host }
        return bindings[role]?.host
    }

    /// Whether `candidate` is in the scope with the roles bound as `bindings`: a role's scope
    /// compares hosts only here (a cookie's domain, an interception rule's hosts).
    public func matches(_ candidate: String, in bindings: HostBindings) -> Bool {
        guard role != nil else { return matches(candidate) }
        guard let bound = resolvedHost(in: bindings) else { return false }
        return HostScope(host: bound, kind: kind).matches(candidate)
    }

    /// Whether `url`'s origin is in the scope: a host's scope compares the host; a role's, the
    /// bound origin — its host (or subdomains, as the pattern says), its port, its scheme or
    /// that scheme's WebSocket twin.
    public func matches(_ url: CanonicalURL, in bindings: HostBindings) -> Bool {
        guard let host = url.host else { return false }
        guard let role else { return matches(host) }
        guard let binding = bindings[role], HostScope(host: binding.host, kind: kind).matches(host) else { return false }
        return url.port == binding.port && (url.scheme == binding.scheme || url.scheme == Self.webSocketTwin[binding.scheme])
    }

    private static let webSocketTwin = ["https": "wss", "http": "ws"]

    /// `'*.shop.example.com'`, `'example.com' and its subdomains`, `'${server}' (bound to
    /// https://ha.example.com)`: the pattern as reasons name it.
    public func described(in bindings: HostBindings) -> String {
        let pattern: String
        switch kind {
        case .exact, .subdomains: pattern = "'\(written)'"
        case .domainAndSubdomains: pattern = "'\(written)' and its subdomains"
        }
        guard let role else { return pattern }
        return pattern + (bindings[role].map { " (bound to \($0.origin))" } ?? " (unbound)")
    }

    /// The host itself is in the scope (not for `*.host`).
    public var includesHost: Bool { kind != .subdomains }
    /// Its subdomains are (`*.host`, or `include-subdomains`).
    public var includesSubdomains: Bool { kind != .exact }

    /// Whether `candidate` (any case) is in the scope; never, for a role (whose host is bound
    /// at run time: `matches(_:in:)`).
    public func matches(_ candidate: String) -> Bool {
        guard role == nil else { return false }
        let candidate = candidate.lowercased()
        switch kind {
        case .exact: return candidate == host
        case .subdomains: return candidate.hasSuffix("." + host)
        case .domainAndSubdomains: return candidate == host || candidate.hasSuffix("." + host)
        }
    }

    /// Every host of `other` is in this scope. A role covers only the same role (with at least
    /// its subdomains), and is covered by no host: its host is not known before run time.
    public func covers(_ other: HostScope) -> Bool {
        if role != nil || other.role != nil {
            return role == other.role && (!other.includesHost || includesHost) && (!other.includesSubdomains || includesSubdomains)
        }
        if other.includesHost && !matches(other.host) { return false }
        guard other.includesSubdomains else { return true }
        // Every subdomain of `other.host` is a subdomain of `host` (or `host` itself does not
        // count: a subdomain of a subdomain is never the apex).
        return includesSubdomains && Self.isWithin(other.host, host)
    }

    /// Some host is in both scopes. A role meets only the same role: whether its host is
    /// another scope's is not known before run time.
    public func intersects(_ other: HostScope) -> Bool {
        if role != nil || other.role != nil {
            return role == other.role && ((includesHost && other.includesHost) || (includesSubdomains && other.includesSubdomains))
        }
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
