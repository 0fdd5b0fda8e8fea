/// `runtimeHosts` in the manifest (version 4): each role, what a binding may use, written only
/// when the policy names some.
extension RuntimeHost {
    enum ManifestMember: ManifestPart {
        static let member = "runtimeHosts"
        static let since = 4

        static func write(_ manifest: Manifest, _ writer: ManifestWriter) -> JSONValue? {
            guard !manifest.runtimeHosts.isEmpty else { return nil }
            return .array(manifest.runtimeHosts.map { host in
                var members: [(String, JSONValue)] = [("name", .string(host.name))]
                if let description = host.description { members.append(("description", .string(description))) }
                members += [("schemes", .array(host.schemes.map(JSONValue.string))), ("http", .string(host.http.rawValue))]
                return .object(members + writer.location(host.location))
            })
        }

        static func read(_ root: JSONNode, into manifest: inout Manifest, _ reader: ManifestReader) throws(Manifest.DecodingError) {
            manifest.runtimeHosts = try reader.objects(root, member).map { node throws(Manifest.DecodingError) in
                RuntimeHost(name: try reader.string(node, "name"), description: try reader.optionalString(node, "description"),
                            schemes: try reader.optionalStrings(node, "schemes") ?? ["https"],
                            http: try reader.optionalWord(node, "http", PlainHTTP.self) ?? .localNetwork, location: try reader.location(node))
            }
        }
    }
}
