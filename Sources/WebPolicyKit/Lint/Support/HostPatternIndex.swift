import WebPolicyRuntime

/// Host patterns (`host`, `*.host`) in policy order, searched for the first one that some host
/// matches together with a given pattern (`InterceptionOverlapRule.patternsOverlap`) by name
/// lookups instead of a comparison with every pattern: a blocklist names tens of thousands of
/// hosts.
struct HostPatternIndex {
    private let patterns: [LocatedString]
    /// By base name (the pattern without `*.`): the first pattern of it, the first wildcard of
    /// it, and the first pattern of any name strictly below it.
    private var first: [String: Int] = [:]
    private var firstWildcard: [String: Int] = [:]
    private var firstBelow: [String: Int] = [:]

    init(_ patterns: [LocatedString]) {
        self.patterns = patterns
        for (position, pattern) in patterns.enumerated() {
            let (base, isWildcard) = Self.split(pattern.value.lowercased())
            if first[base] == nil { first[base] = position }
            if isWildcard, firstWildcard[base] == nil { firstWildcard[base] = position }
            for parent in Self.parents(of: base) where firstBelow[parent] == nil { firstBelow[parent] = position }
        }
    }

    /// The first pattern that overlaps `pattern` (lowercased).
    func firstOverlapping(_ pattern: String) -> LocatedString? {
        let (base, isWildcard) = Self.split(pattern)
        // The same base; a wildcard strictly above `base`; or, when `pattern` is a wildcard,
        // any pattern strictly below it.
        var candidates = [first[base]] + Self.parents(of: base).map { firstWildcard[$0] }
        if isWildcard { candidates.append(firstBelow[base]) }
        return candidates.compactMap { $0 }.min().map { patterns[$0] }
    }

    private static func split(_ pattern: String) -> (base: String, isWildcard: Bool) {
        pattern.hasPrefix("*.") ? (String(pattern.dropFirst(2)), true) : (pattern, false)
    }

    /// The names `host` ends in after a dot (`a.b.c`: `b.c`, `c`), as `HostNames.isWithin` reads them.
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
