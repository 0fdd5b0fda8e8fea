import WebPolicyRuntime

/// A `${role}` written where a host pattern goes, with the place's name for messages.
struct RoleReference {
    var text: LocatedString
    var role: String
    /// `navigation.pages`, `bridge 'haBridge'`, `http-allowlist`, `cookie 'session'`…
    var place: String
}

extension Policy {
    /// Every `${role}` the policy writes in a host pattern, in document order of the sections.
    var roleReferences: [RoleReference] {
        var found: [RoleReference] = []
        func add(_ text: LocatedString, _ place: String) {
            if let role = HostScope(pattern: text.value).role { found.append(RoleReference(text: text, role: role, place: place)) }
        }
        for entry in httpAllowlist { add(entry.host, "the http-allowlist") }
        for cookie in cookies { add(cookie.domain, "cookie '\(cookie.name.value)'") }
        for rule in interception { for host in rule.hosts?.value ?? [] { add(host, "an interception rule") } }
        for entry in navigation?.pages ?? [] { add(entry.host, "navigation.pages") }
        for entry in navigation?.frames ?? [] { add(entry.host, "navigation.frames") }
        for domain in appBoundDomains?.domains?.value ?? [] { add(domain, "app-bound-domains") }
        for bridge in bridges { for origin in bridge.origins?.value ?? [] { add(origin, "bridge '\(bridge.name.value)'") } }
        for permission in webView?.permissions?.value ?? [] { for origin in permission.origins { add(origin, "webview.permissions.\(permission.kind.rawValue)") } }
        return found
    }
}
