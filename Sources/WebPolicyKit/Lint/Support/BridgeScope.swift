import WebPolicyRuntime

/// A bridge's origins as the message gate matches them, for rules that compare them with
/// other sections.
extension BridgeDeclaration {
    /// Each origin pattern with its scope; `*` has none (it admits every host).
    var originScopes: [(pattern: LocatedString, scope: HostScope?)] {
        (origins?.value ?? []).map { ($0, $0.value == "*" ? nil : HostScope(pattern: $0.value)) }
    }

    /// Some host of `scope` is one of the bridge's origins (over a scheme the bridge admits
    /// and `schemes` lists).
    func admitsSomeHost(of scope: HostScope, schemes: [String]) -> Bool {
        guard schemeNames.contains(where: schemes.contains) else { return false }
        return originScopes.contains { $0.scope.map { $0.intersects(scope) } ?? true }
    }

    /// Every host of `scope` is one of the bridge's origins (one origin holds them all).
    func admitsEveryHost(of scope: HostScope) -> Bool {
        originScopes.contains { origin in origin.scope?.covers(scope) ?? true }
    }
}
