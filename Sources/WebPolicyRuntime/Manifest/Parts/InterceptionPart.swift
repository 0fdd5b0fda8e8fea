/// `interception`: the rules the app's scheme handlers answer by.
extension Manifest {
    enum InterceptionPart: ManifestPart {
        static let member = "interception"
        static let since = 1

        static func write(_ manifest: Manifest, _ writer: ManifestWriter) -> JSONValue? {
            .array(manifest.interception.map { rule in
                var members: [(String, JSONValue)] = []
                if let id = rule.id { members.append(("id", .string(id))) }
                members.append(("scheme", .string(rule.scheme)))
                if let hosts = rule.hosts { members.append(("hosts", .array(hosts.map { .object(writer.host($0)) }))) }
                if let paths = rule.paths { members.append(("paths", .array(paths.map(JSONValue.string)))) }
                if let methods = rule.methods { members.append(("methods", .array(methods.map(JSONValue.string)))) }
                if let serve = rule.serve { members.append(("serve", .string(serve))) }
                if let handler = rule.handler { members.append(("handler", .string(handler))) }
                return .object(members + writer.location(rule.location))
            })
        }

        static func read(_ root: JSONNode, into manifest: inout Manifest, _ reader: ManifestReader) throws(Manifest.DecodingError) {
            manifest.interception = try reader.objects(root, member).map { entry throws(Manifest.DecodingError) in
                var rule = Interception(id: try reader.optionalString(entry, "id"), scheme: try reader.string(entry, "scheme"))
                if let hosts = entry.member("hosts") {
                    guard let items = hosts.array else { throw reader.fail("\"hosts\" must be an array", hosts) }
                    rule.hosts = try items.map { item throws(Manifest.DecodingError) in try reader.hostMatch(item) }
                }
                rule.paths = try reader.optionalStrings(entry, "paths")
                rule.methods = try reader.optionalStrings(entry, "methods")?.map { $0.uppercased() }
                rule.serve = try reader.optionalString(entry, "serve")
                rule.handler = try reader.optionalString(entry, "handler")
                rule.location = try reader.location(entry)
                return rule
            }
        }
    }
}
