/// `httpAllowlist` and `schemeAllowlist`: written always, empty when the policy has none.
extension Manifest {
    enum HTTPAllowlistPart: ManifestPart {
        static let member = "httpAllowlist"
        static let since = 1

        static func write(_ manifest: Manifest, _ writer: ManifestWriter) -> JSONValue? {
            .array(manifest.httpAllowlist.map { entry in
                var members = writer.host(entry.host)
                if let reason = entry.reason { members.append(("reason", .string(reason))) }
                return .object(members + writer.location(entry.location))
            })
        }

        static func read(_ root: JSONNode, into manifest: inout Manifest, _ reader: ManifestReader) throws(Manifest.DecodingError) {
            manifest.httpAllowlist = try reader.objects(root, member).map { entry throws(Manifest.DecodingError) in
                HTTPAllowlistEntry(host: try reader.hostMatch(entry), reason: try reader.optionalString(entry, "reason"), location: try reader.location(entry))
            }
        }
    }

    enum SchemeAllowlistPart: ManifestPart {
        static let member = "schemeAllowlist"
        static let since = 1

        static func write(_ manifest: Manifest, _ writer: ManifestWriter) -> JSONValue? {
            .array(manifest.schemeAllowlist.map { entry in
                var members: [(String, JSONValue)] = [("scheme", .string(entry.scheme))]
                if let hosts = entry.hosts { members.append(("hosts", .array(hosts.map(JSONValue.string)))) }
                if let paths = entry.paths { members.append(("paths", .array(paths.map(JSONValue.string)))) }
                return .object(members + writer.location(entry.location))
            })
        }

        static func read(_ root: JSONNode, into manifest: inout Manifest, _ reader: ManifestReader) throws(Manifest.DecodingError) {
            manifest.schemeAllowlist = try reader.objects(root, member).map { entry throws(Manifest.DecodingError) in
                SchemeAllowlistEntry(scheme: try reader.string(entry, "scheme"), hosts: try reader.optionalStrings(entry, "hosts"),
                                     paths: try reader.optionalStrings(entry, "paths"), location: try reader.location(entry))
            }
        }
    }
}
