import WebPolicyRuntime

/// `app-bound-domains:`, read as the other sections are: every structural problem reported at
/// its place, the rest kept.
extension PolicyDecoder {
    mutating func decodeAppBoundDomains(_ node: YAMLNode) -> AppBoundDomainsSection? {
        guard let fields = reader.fields(of: node, context: "the app-bound-domains section", allowed: PolicyKeys.appBoundDomains) else { return nil }
        var section = AppBoundDomainsSection(location: reader.location(node))
        section.domains = reader.stringList("domains", in: fields)
        if !fields.has("domains") { reader.requireKey("domains", in: fields, hint: "list the domains, at most ten, that WKAppBoundDomains names") }
        section.limitNavigations = reader.bool("limit-navigations", in: fields)
        return section
    }
}
