import WebPolicyRuntime

/// `interception:` entries.
extension PolicyDecoder {
    mutating func decodeInterceptionRule(_ node: YAMLNode) -> InterceptionRule? {
        guard let fields = reader.fields(of: node, context: "an interception rule", allowed: PolicyKeys.interceptionRule) else { return nil }
        let id = reader.string("id", in: fields)
        let description = reader.string("description", in: fields)
        let scheme = reader.string("scheme", in: fields, required: true)
        let hosts = reader.stringList("hosts", in: fields)
        let paths = reader.stringList("paths", in: fields)
        let methods = reader.choiceList("methods", in: fields, as: RequestMethod.self, caseInsensitive: true)
        reader.exclusive(["serve", "handler"], in: fields, required: true)
        let serve = reader.string("serve", in: fields)
        let handler = reader.string("handler", in: fields)
        guard let scheme else { return nil }
        return InterceptionRule(
            location: reader.location(node), id: id, description: description, scheme: scheme, hosts: hosts, paths: paths,
            methods: methods, serve: serve, handler: handler
        )
    }
}
