import WebPolicyRuntime

/// The security settings of `webview:`, read with every problem at its place.
extension PolicyDecoder {
    mutating func decodeWebViewSecurity(_ fields: Fields, into section: inout WebViewSection) {
        for row in WebViewSettingCatalogue.choices {
            guard let written = reader.string(row.key, in: fields) else { continue }
            // `lockdown: device` says in words what leaving the key out does: kept, so that
            // the audit holds code that turns Lockdown off to it; the runtime sets nothing.
            guard row.choice(named: written.value) != nil || (row.key == "lockdown" && written.value == "device") else {
                let allowed = row.choices.map(\.name) + (row.key == "lockdown" ? ["device"] : [])
                var message = "'\(row.key)' must be one of \(Suggestions.list(allowed)), but got '\(written.value)'"
                if let suggestion = Suggestions.closest(to: written.value, in: allowed) { message += "; did you mean '\(suggestion)'?" }
                reader.error(.invalidValue, message, at: written.location.range, hint: "\(row.api): \(row.summary)")
                continue
            }
            section[choice: row] = written
        }
        if let node = fields.value("data-store") { section.dataStore = decodeDataStore(node) }
        if let node = fields.value("web-extensions") { section.webExtensions = decodeWebExtensions(node) }
        if let node = fields.value("permissions") { section.permissions = decodePermissions(node) }
    }

    /// `default`, `non-persistent`, or `{profile: NAME}`.
    private mutating func decodeDataStore(_ node: YAMLNode) -> Located<WebsiteDataStoreChoice>? {
        let usage = "default, non-persistent, or a store of its own: { profile: NAME }"
        if node.mapping != nil {
            guard let fields = reader.fields(of: node, context: "'data-store'", allowed: ["profile"]) else { return nil }
            guard let name = reader.string("profile", in: fields, required: true) else { return nil }
            guard !name.value.isEmpty else {
                reader.error(.invalidValue, "a profile's name is empty", at: name.location.range, hint: usage)
                return nil
            }
            return Located(.profile(name.value), at: reader.location(node))
        }
        guard let word = reader.string(node, what: "'data-store'") else { return nil }
        switch word.value {
        case "default": return Located(.default, at: word.location)
        case "non-persistent": return Located(.nonPersistent, at: word.location)
        default:
            var message = "'data-store' is \(usage), but got '\(word.value)'"
            if let suggestion = Suggestions.closest(to: word.value, in: ["default", "non-persistent", "profile"]) { message += "; did you mean '\(suggestion)'?" }
            reader.error(.invalidValue, message, at: word.location.range, hint: "WKWebsiteDataStore.default(), .nonPersistent(), or WKWebsiteDataStore(forIdentifier:) (iOS 17)")
            return nil
        }
    }

    /// `none`, or the names of the extensions the app may load.
    private mutating func decodeWebExtensions(_ node: YAMLNode) -> Located<[LocatedString]>? {
        if node.sequence == nil {
            guard let word = reader.string(node, what: "'web-extensions'") else { return nil }
            guard word.value == "none" else {
                reader.error(.invalidValue, "'web-extensions' is none, or a list of the extensions the app may load, but got '\(word.value)'", at: word.location.range,
                             hint: "web-extensions: [reader-mode] names each; none keeps the view without a WKWebExtensionController")
                return nil
            }
            return Located([], at: word.location)
        }
        let names = reader.list(node, what: "'web-extensions'") { reader, item in reader.string(item, what: "an entry of 'web-extensions'") }
        for name in names?.value ?? [] where name.value.isEmpty || name.value == "none" {
            reader.error(.invalidValue, name.value.isEmpty ? "an extension's name is empty" : "'none' stands alone: web-extensions: none", at: name.location.range)
        }
        return names
    }

    /// `camera`, `microphone`, `device-motion`: each `deny`, `ask`, or a list of origins.
    private mutating func decodePermissions(_ node: YAMLNode) -> Located<[PermissionDeclaration]>? {
        guard let fields = reader.fields(of: node, context: "'permissions'", allowed: PolicyKeys.webViewPermissions) else { return nil }
        var declarations: [PermissionDeclaration] = []
        for kind in PermissionKind.allCases {
            guard let value = fields.value(kind.rawValue) else { continue }
            let location = reader.location(value)
            if value.sequence != nil {
                guard let origins = reader.list(value, what: "'\(kind.rawValue)'", element: { reader, item in reader.string(item, what: "an origin of '\(kind.rawValue)'") }) else { continue }
                if origins.value.isEmpty {
                    reader.error(.invalidValue, "'\(kind.rawValue)' lists no origin, which refuses every page: write \(kind.rawValue): deny to say so", at: value.range)
                    continue
                }
                var scopes: [HostScope] = []
                var seen: Set<String> = []
                for origin in origins.value {
                    if origin.value == "ask" || origin.value == "deny" {
                        reader.error(.invalidValue, "'\(origin.value)' stands alone: \(kind.rawValue): \(origin.value), not inside a list of origins", at: origin.location.range,
                                     hint: "a list names the hosts whose pages may ask; \(kind.rawValue): ask lets every page ask")
                        continue
                    }
                    guard checkPermissionOrigin(origin, kind: kind) else { continue }
                    // A duplicate says nothing more; lint's host rules check each host.
                    if !seen.insert(origin.value.lowercased()).inserted {
                        reader.error(.invalidValue, "'\(origin.value)' is listed twice under '\(kind.rawValue)'", at: origin.location.range)
                        continue
                    }
                    scopes.append(HostScope(pattern: origin.value))
                }
                declarations.append(PermissionDeclaration(kind: kind, rule: .origins(scopes), origins: origins.value, location: location))
                continue
            }
            guard let word = reader.string(value, what: "'\(kind.rawValue)'") else { continue }
            switch word.value {
            case "deny": declarations.append(PermissionDeclaration(kind: kind, rule: .deny, location: location))
            case "ask": declarations.append(PermissionDeclaration(kind: kind, rule: .ask, location: location))
            default:
                var message = "'\(kind.rawValue)' is deny, ask, or a list of the origins that may ask, but got '\(word.value)'"
                if let suggestion = Suggestions.closest(to: word.value, in: ["deny", "ask"]) { message += "; did you mean '\(suggestion)'?" }
                reader.error(.invalidValue, message, at: word.location.range, hint: "\(kind.rawValue): [meet.example.com] lets that origin's pages ask the user; every other origin is refused")
            }
        }
        return Located(declarations, at: reader.location(node))
    }

    /// `host`, `*.host` or `${role}`; not `*` (that is `ask`). The rest of a host's shape is
    /// lint's host rules' to check, as for every host of the policy.
    private mutating func checkPermissionOrigin(_ origin: LocatedString, kind: PermissionKind) -> Bool {
        let text = origin.value
        if text == "*" {
            reader.error(.invalidValue, "'*' as an origin lets every page ask: write \(kind.rawValue): ask", at: origin.location.range)
            return false
        }
        // A scheme, a port, a path, case: lint's host rules say each, with fixes.
        if text.filter({ $0 == ":" }).count >= 2, !text.contains("/") {
            reader.error(.invalidValue, "'\(text)' is an IPv6 address: its pages are no secure context that WebKit lets ask for a device", at: origin.location.range,
                         hint: "name the host that serves the page over https")
            return false
        }
        let bare = text.hasPrefix("*.") ? String(text.dropFirst(2)) : text
        if bare.isEmpty || (HostScope.roleName(bare) == nil && bare.contains(where: { $0 == "*" || $0 == " " })) {
            reader.error(.invalidValue, "'\(text)' is not a host pattern", at: origin.location.range, hint: "write host, *.host for its subdomains, or ${role}")
            return false
        }
        return true
    }
}
