import WebPolicyRuntime

/// `navigation:`, read as the other sections are: every structural
/// problem reported at its place, the rest kept.
extension PolicyDecoder {
    mutating func decodeNavigation(_ node: YAMLNode) -> NavigationSection? {
        guard let fields = reader.fields(of: node, context: "the navigation section", allowed: PolicyKeys.navigation) else { return nil }
        var navigation = NavigationSection(location: reader.location(node))
        navigation.pages = section("pages", in: fields) { $0.decodeNavigationEntry($1, what: "a navigation.pages entry") }
        navigation.frames = section("frames", in: fields) { $0.decodeNavigationEntry($1, what: "a navigation.frames entry") }
        navigation.otherwise = reader.choice("otherwise", in: fields, as: NavigationOtherwise.self)
        navigation.newWindows = reader.choice("new-windows", in: fields, as: NewWindowPolicy.self)
        return navigation
    }

    private mutating func decodeNavigationEntry(_ node: YAMLNode, what: String) -> NavigationEntry? {
        guard let fields = reader.fields(of: node, context: what, allowed: PolicyKeys.navigationEntry) else { return nil }
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
        return NavigationEntry(location: reader.location(node), host: host, includeSubdomains: includeSubdomains, paths: paths, schemes: schemes, reason: reason)
    }
}
