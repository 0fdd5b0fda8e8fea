import WebPolicyRuntime

/// A host pattern written somewhere in a policy, with the hosts it names (`include-subdomains`
/// counted) and the place's name for messages and hovers.
public struct HostPatternReference: Sendable {
    public var text: LocatedString
    public var scope: HostScope
    /// `navigation.pages`, `bridge 'haBridge'`, `the http-allowlist`, `cookie 'session'`…
    public var place: String
}

/// A `${role}` written where a host pattern goes, with the place's name for messages.
struct RoleReference {
    var text: LocatedString
    var role: String
    var place: String
}

extension Policy {
    /// Every host pattern the policy writes, in document order of the sections: the one list
    /// role checks and the editor's host hover read.
    public var hostPatterns: [HostPatternReference] {
        var found: [HostPatternReference] = []
        func add(_ text: LocatedString, _ place: String, includeSubdomains: Bool = false) {
            found.append(HostPatternReference(text: text, scope: HostScope(pattern: text.value, includeSubdomains: includeSubdomains), place: place))
        }
        for entry in httpAllowlist { add(entry.host, "the http-allowlist", includeSubdomains: entry.includeSubdomains?.value ?? false) }
        for cookie in cookies { add(cookie.domain, "cookie '\(cookie.name.value)'") }
        for rule in interception { for host in rule.hosts?.value ?? [] { add(host, "an interception rule") } }
        for entry in navigation?.pages ?? [] { add(entry.host, "navigation.pages", includeSubdomains: entry.includeSubdomains?.value ?? false) }
        for entry in navigation?.frames ?? [] { add(entry.host, "navigation.frames", includeSubdomains: entry.includeSubdomains?.value ?? false) }
        for domain in appBoundDomains?.domains?.value ?? [] where !domain.value.hasSuffix(":") { add(domain, "app-bound-domains") }
        for bridge in bridges { for origin in bridge.origins?.value ?? [] where origin.value != "*" { add(origin, "bridge '\(bridge.name.value)'") } }
        for permission in webView?.permissions?.value ?? [] { for origin in permission.origins { add(origin, "webview.permissions.\(permission.kind.rawValue)") } }
        return found
    }

    /// Every `${role}` the policy writes in a host pattern, in document order of the sections.
    var roleReferences: [RoleReference] {
        hostPatterns.compactMap { reference in reference.scope.role.map { RoleReference(text: reference.text, role: $0, place: reference.place) } }
    }
}
