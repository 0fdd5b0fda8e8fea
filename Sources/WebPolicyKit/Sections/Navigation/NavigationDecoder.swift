import WebPolicyRuntime

/// `navigation:`, read as the other sections are: every structural
/// problem reported at its place, the rest kept.
extension PolicyDecoder {
    mutating func decodeNavigation(_ node: YAMLNode) -> NavigationSection? {
        guard let fields = reader.fields(of: node, context: "the navigation section", allowed: PolicyKeys.navigation) else { return nil }
        var navigation = NavigationSection(location: reader.location(node))
        let pages: [PageEntry] = section("pages", in: fields) { $0.decodeNavigationEntry($1, what: "a navigation.pages entry", schemeAllowed: true) }
        for page in pages {
            switch page {
            case .host(let entry): navigation.pages.append(entry)
            case .scheme(let entry): navigation.schemePages.append(entry)
            }
        }
        navigation.frames = section("frames", in: fields) { $0.decodeNavigationEntry($1, what: "a navigation.frames entry", schemeAllowed: false) }
            .compactMap { if case .host(let entry) = $0 { entry } else { nil } }
        navigation.otherwise = reader.choice("otherwise", in: fields, as: NavigationOtherwise.self)
        navigation.newWindows = reader.choice("new-windows", in: fields, as: NewWindowPolicy.self)
        return navigation
    }

    private enum PageEntry {
        case host(NavigationEntry)
        case scheme(NavigationSchemePage)
    }

    private mutating func decodeNavigationEntry(_ node: YAMLNode, what: String, schemeAllowed: Bool) -> PageEntry? {
        guard let fields = reader.fields(of: node, context: what, allowed: PolicyKeys.navigationEntry) else { return nil }
        if let scheme = reader.string("scheme", in: fields) {
            return decodeSchemePage(node, scheme: scheme, fields: fields, what: what, allowed: schemeAllowed).map(PageEntry.scheme)
        }
        let includeSubdomains = reader.bool("include-subdomains", in: fields)
        let paths = reader.stringList("paths", in: fields)
        let schemes = reader.stringList("schemes", in: fields)
        let reason = reader.string("reason", in: fields)
        if let schemes {
            for scheme in schemes.value where !WebKitSchemes.web.contains(scheme.value.lowercased()) {
                reader.error(.invalidValue, "'schemes' of a navigation entry lists web schemes, http or https, but got '\(scheme.value)'", at: scheme.location.range,
                             hint: "a custom scheme the app serves goes under interception; one handed to the system under scheme-allowlist")
            }
        }
        if let paths {
            for path in paths.value where !path.value.hasPrefix("/") {
                reader.error(.invalidValue, "a path prefix starts with '/', but got '\(path.value)'", at: path.location.range, hint: "write '/\(path.value)'")
            }
        }
        guard let host = reader.string("host", in: fields, required: true) else { return nil }
        return .host(NavigationEntry(location: reader.location(node), host: host, includeSubdomains: includeSubdomains, paths: paths, schemes: schemes, reason: reason))
    }

    /// `- scheme: zim`: the app's own pages. A scheme names every page on it, so the keys that
    /// narrow a host entry do not apply.
    private mutating func decodeSchemePage(_ node: YAMLNode, scheme: LocatedString, fields: Fields, what: String, allowed: Bool) -> NavigationSchemePage? {
        guard allowed else {
            reader.error(.invalidValue, "\(what) names a host: an iframe on the app's own scheme needs none (the scheme gate serves it)", at: scheme.location.range,
                         hint: "list the scheme under navigation.pages, or remove the entry")
            return nil
        }
        let name = scheme.value.lowercased()
        if WebKitSchemes.web.contains(name) {
            reader.error(.invalidValue, "a page over \(name) is named by its host, not by its scheme: 'scheme: \(name)' would admit every site", at: scheme.location.range,
                         hint: name == "http" ? "write '- host: www.example.com' with 'schemes: [http]'" : "write '- host: www.example.com'")
            return nil
        }
        for key in ["host", "include-subdomains", "paths", "schemes"] {
            guard let value = fields.value(key) else { continue }
            reader.error(.invalidValue, "'\(key)' does not apply to a page entry by scheme: it admits every page on '\(name)'", at: value.range,
                         hint: "remove '\(key)', or make it a host entry without 'scheme'")
        }
        return NavigationSchemePage(location: reader.location(node), scheme: scheme, reason: reader.string("reason", in: fields))
    }
}
