import WebPolicyRuntime

/// `content-rule-lists:` entries: a list's path and name; the loader reads the list itself.
extension PolicyDecoder {
    mutating func decodeContentRuleList(_ node: YAMLNode) -> ContentRuleListReference? {
        guard let fields = reader.fields(of: node, context: "a content-rule-lists entry", allowed: PolicyKeys.contentRuleListEntry) else { return nil }
        let id = reader.string("id", in: fields)
        guard let path = reader.string("path", in: fields, required: true) else { return nil }
        return ContentRuleListReference(location: reader.location(node), path: path, id: id)
    }
}
