import WebPolicyRuntime

/// `http-allowlist:` entries.
extension PolicyDecoder {
    mutating func decodeHTTPAllowlistEntry(_ node: YAMLNode) -> HTTPAllowlistEntry? {
        guard let fields = reader.fields(of: node, context: "an http-allowlist entry", allowed: PolicyKeys.httpAllowlistEntry) else { return nil }
        let includeSubdomains = reader.bool("include-subdomains", in: fields)
        let reason = reader.string("reason", in: fields)
        guard let host = reader.string("host", in: fields, required: true) else { return nil }
        return HTTPAllowlistEntry(location: reader.location(node), host: host, includeSubdomains: includeSubdomains, reason: reason)
    }
}
