import WebPolicyRuntime

/// A bridge's origins as the message gate matches them, for rules that compare them with
/// other sections.
extension BridgeDeclaration {
    /// Each origin pattern with its scope; `*` has none (it admits every host).
    var originScopes: [(pattern: LocatedString, scope: NavigationScope?)] {
        (origins?.value ?? []).map { ($0, $0.value == "*" ? nil : NavigationScope(pattern: $0.value)) }
    }

    /// Some host of `scope` is one of the bridge's origins (over a scheme the bridge admits
    /// and `schemes` lists).
    func admitsSomeHost(of scope: NavigationScope, schemes: [String]) -> Bool {
        guard schemeNames.contains(where: schemes.contains) else { return false }
        return originScopes.contains { $0.scope.map { $0.intersects(scope) } ?? true }
    }

    /// Every host of `scope` is one of the bridge's origins (one origin holds them all).
    func admitsEveryHost(of scope: NavigationScope) -> Bool {
        originScopes.contains { origin in
            guard let pattern = origin.scope else { return true }
            func covers(_ host: String) -> Bool {
                (pattern.includesHost && pattern.host == host) || (pattern.includesSubdomains && host != pattern.host && HostNames.isWithin(host, pattern.host))
            }
            if scope.includesHost && !covers(scope.host) { return false }
            return !scope.includesSubdomains || (pattern.includesSubdomains && HostNames.isWithin(scope.host, pattern.host))
        }
    }
}
