import WebPolicyRuntime

/// `scheme-allowlist:` entries.
extension PolicyDecoder {
    mutating func decodeSchemeAllowlistEntry(_ node: YAMLNode) -> SchemeAllowlistEntry? {
        guard let fields = reader.fields(of: node, context: "a scheme-allowlist entry", allowed: PolicyKeys.schemeAllowlistEntry) else { return nil }
        let hosts = reader.stringList("hosts", in: fields)
        let paths = reader.stringList("paths", in: fields)
        let reason = reader.string("reason", in: fields)
        guard let scheme = reader.string("scheme", in: fields, required: true) else { return nil }
        return SchemeAllowlistEntry(location: reader.location(node), scheme: scheme, hosts: hosts, paths: paths, reason: reason)
    }
}
