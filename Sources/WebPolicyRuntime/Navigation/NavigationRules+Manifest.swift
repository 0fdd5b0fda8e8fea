/// `navigation` in the manifest (version 2): where the view may go, written only when the
/// policy says.
extension NavigationRules {
    enum ManifestMember: ManifestPart {
        static let member = "navigation"
        static let since = 2

        static func write(_ manifest: Manifest, _ writer: ManifestWriter) -> JSONValue? {
            guard let navigation = manifest.navigation else { return nil }
            func entries(_ list: [Entry]) -> JSONValue {
                .array(list.map { entry in
                    var members = writer.host(entry.host)
                    members.append(("schemes", .array(entry.schemes.map(JSONValue.string))))
                    if let paths = entry.paths { members.append(("paths", .array(paths.map(JSONValue.string)))) }
                    return .object(members + writer.location(entry.location))
                })
            }
            // Written only when the policy has such pages: older manifests stay byte for byte.
            let schemePages: [(String, JSONValue)] = navigation.pageSchemes.isEmpty ? [] : [("pageSchemes", .array(navigation.pageSchemes.map { page in
                .object([("scheme", .string(page.scheme))] + writer.location(page.location))
            }))]
            return .object([
                ("pages", entries(navigation.pages)), ("frames", entries(navigation.frames)),
            ] + schemePages + [
                ("otherwise", .string(navigation.otherwise.rawValue)), ("newWindows", .string(navigation.newWindows.rawValue)),
            ] + writer.location(navigation.location) + writer.location(navigation.otherwiseLocation, key: "otherwiseLocation")
              + writer.location(navigation.newWindowsLocation, key: "newWindowsLocation"))
        }

        static func read(_ root: JSONNode, into manifest: inout Manifest, _ reader: ManifestReader) throws(Manifest.DecodingError) {
            guard let node = try reader.optionalObject(root, member) else { return }
            func entries(_ key: String) throws(Manifest.DecodingError) -> [Entry] {
                try reader.objects(node, key).map { entry throws(Manifest.DecodingError) in
                    Entry(host: try reader.hostMatch(entry), schemes: try reader.optionalStrings(entry, "schemes") ?? ["https"],
                          paths: try reader.optionalStrings(entry, "paths"), location: try reader.location(entry))
                }
            }
            let schemePages = try reader.objects(node, "pageSchemes").map { page throws(Manifest.DecodingError) in
                SchemePage(scheme: try reader.string(page, "scheme"), location: try reader.location(page))
            }
            manifest.navigation = NavigationRules(pages: try entries("pages"), frames: try entries("frames"), pageSchemes: schemePages,
                                                  otherwise: try reader.optionalWord(node, "otherwise", NavigationOtherwise.self) ?? .openExternally,
                                                  newWindows: try reader.optionalWord(node, "newWindows", NewWindowPolicy.self) ?? .sameView,
                                                  location: try reader.location(node), otherwiseLocation: try reader.location(node, key: "otherwiseLocation"),
                                                  newWindowsLocation: try reader.location(node, key: "newWindowsLocation"))
        }
    }
}
