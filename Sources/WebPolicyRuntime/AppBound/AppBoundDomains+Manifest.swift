/// `appBoundDomains` in the manifest (version 2), written only when the policy has the section.
extension AppBoundDomains {
    enum ManifestMember: ManifestPart {
        static let member = "appBoundDomains"
        static let since = 2

        static func write(_ manifest: Manifest, _ writer: ManifestWriter) -> JSONValue? {
            guard let domains = manifest.appBoundDomains else { return nil }
            return .object([("entries", .array(domains.entries.map(JSONValue.string))), ("limitNavigations", .bool(domains.limitNavigations))]
                           + writer.location(domains.location))
        }

        static func read(_ root: JSONNode, into manifest: inout Manifest, _ reader: ManifestReader) throws(Manifest.DecodingError) {
            guard let node = try reader.optionalObject(root, member) else { return }
            manifest.appBoundDomains = AppBoundDomains(entries: try reader.optionalStrings(node, "entries") ?? [],
                                                       limitNavigations: try reader.optionalBool(node, "limitNavigations") ?? false,
                                                       location: try reader.location(node))
        }
    }
}
