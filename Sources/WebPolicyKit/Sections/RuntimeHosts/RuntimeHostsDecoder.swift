import WebPolicyRuntime

/// `runtime-hosts:`, a mapping from role names to what a binding may use, read as the other
/// sections are: every structural problem reported at its place, the rest kept.
extension PolicyDecoder {
    mutating func decodeRuntimeHosts(_ node: YAMLNode) -> [RuntimeHostDeclaration] {
        guard let pairs = node.mapping else {
            reader.wrongKind(node, expected: "a mapping of role names", what: "'runtime-hosts'")
            return []
        }
        var roles: [RuntimeHostDeclaration] = []
        for pair in pairs {
            guard let name = reader.string(pair.key, what: "a role's name") else { continue }
            guard Self.isRoleName(name.value) else {
                reader.error(.invalidValue, "'\(name.value)' is not a role name", at: name.location.range,
                             hint: "a role's name is letters, digits, '-' and '_', starting with a letter: ${\(Self.suggestedName(name.value))} refers to it")
                continue
            }
            var role = RuntimeHostDeclaration(location: reader.location(pair.key), name: name)
            guard let fields = reader.fields(of: pair.value, context: "the role '\(name.value)'", allowed: PolicyKeys.runtimeHost) else { continue }
            role.description = reader.string("description", in: fields)
            role.schemes = reader.stringList("schemes", in: fields)
            for scheme in role.schemes?.value ?? [] where !["https", "http"].contains(scheme.value.lowercased()) {
                reader.error(.invalidValue, "a role is bound to an https or http server, not '\(scheme.value)'", at: scheme.location.range,
                             hint: "schemes: [https], or [https, http] with 'http: local-network'")
            }
            role.http = reader.choice("http", in: fields, as: RuntimeHost.PlainHTTP.self)
            roles.append(role)
        }
        return roles
    }

    /// Letters, digits, `-` and `_`, starting with a letter: what `${name}` can hold unambiguously.
    static func isRoleName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }

    private static func suggestedName(_ text: String) -> String {
        let kept = String(text.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") })
        return kept.isEmpty ? "server" : kept
    }
}
