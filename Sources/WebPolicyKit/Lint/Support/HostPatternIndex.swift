import WebPolicyRuntime

/// Host patterns (`host`, `*.host`) in policy order, searched for the first one whose hosts
/// meet a given scope's (`HostScope.intersects`) by name lookups instead of a comparison with
/// every pattern: a blocklist names tens of thousands of hosts.
struct HostPatternIndex {
    private let patterns: [LocatedString]
    /// By host (the pattern without `*.`): the first exact pattern of it, the first wildcard of
    /// it, and the first pattern of any name strictly below it.
    private var firstExact: [String: Int] = [:]
    private var firstWildcard: [String: Int] = [:]
    private var firstBelow: [String: Int] = [:]

    init(_ patterns: [LocatedString]) {
        self.patterns = patterns
        for (position, pattern) in patterns.enumerated() {
            let scope = HostScope(pattern: pattern.value)
            if scope.includesHost, firstExact[scope.host] == nil { firstExact[scope.host] = position }
            if scope.includesSubdomains, firstWildcard[scope.host] == nil { firstWildcard[scope.host] = position }
            for parent in Self.parents(of: scope.host) where firstBelow[parent] == nil { firstBelow[parent] = position }
        }
    }

    /// The first pattern some host of `scope` matches too.
    func firstOverlapping(_ scope: HostScope) -> LocatedString? {
        // The host itself, by an exact pattern or one of its own subdomains' (never for `*.`
        // patterns of it); a wildcard strictly above; or, for a scope with subdomains, its
        // own wildcard and any pattern strictly below it.
        var candidates = Self.parents(of: scope.host).map { firstWildcard[$0] }
        if scope.includesHost { candidates.append(firstExact[scope.host]) }
        if scope.includesSubdomains { candidates += [firstWildcard[scope.host], firstBelow[scope.host]] }
        return candidates.compactMap { $0 }.min().map { patterns[$0] }
    }

    /// The names `host` ends in after a dot (`a.b.c`: `b.c`, `c`), as `HostScope.isWithin` reads them.
    static func parents(of host: String) -> [String] {
        var parents: [String] = []
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            parents.append(String(rest))
        }
        return parents
    }
}
