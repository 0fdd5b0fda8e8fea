/// `bridges` in the manifest (version 3): each handler and who may call it, written only
/// when the policy has some.
extension Bridge {
    enum ManifestMember: ManifestPart {
        static let member = "bridges"
        static let since = 3

        static func write(_ manifest: Manifest, _ writer: ManifestWriter) -> JSONValue? {
            guard !manifest.bridges.isEmpty else { return nil }
            return .array(manifest.bridges.map { bridge in
                var members: [(String, JSONValue)] = [("name", .string(bridge.name))]
                members.append(("origins", .array(bridge.origins.map { origin in
                    var entry: [(String, JSONValue)] = origin.host.map(writer.host) ?? [("host", .string("*")), ("match", .string("any"))]
                    entry.append(("schemes", .array(origin.schemes.map(JSONValue.string))))
                    return .object(entry + writer.location(origin.location))
                })))
                members += [("frames", .string(bridge.frames.rawValue)), ("world", .string(bridge.world.name)), ("reply", .bool(bridge.reply))]
                return .object(members + writer.location(bridge.location) + writer.location(bridge.framesLocation, key: "framesLocation")
                               + writer.location(bridge.originsLocation, key: "originsLocation"))
            })
        }

        static func read(_ root: JSONNode, into manifest: inout Manifest, _ reader: ManifestReader) throws(Manifest.DecodingError) {
            manifest.bridges = try reader.objects(root, member).map { node throws(Manifest.DecodingError) in
                let origins = try reader.objects(node, "origins").map { entry throws(Manifest.DecodingError) in
                    let any = try reader.optionalString(entry, "match") == "any"
                    return Origin(host: any ? nil : try reader.hostMatch(entry), schemes: try reader.optionalStrings(entry, "schemes") ?? ["https"],
                                  location: try reader.location(entry))
                }
                return Bridge(name: try reader.string(node, "name"), origins: origins, frames: try reader.optionalWord(node, "frames", BridgeFrames.self) ?? .main,
                              world: ContentWorldName(try reader.optionalString(node, "world") ?? "page"), reply: try reader.optionalBool(node, "reply") ?? false,
                              location: try reader.location(node), framesLocation: try reader.location(node, key: "framesLocation"),
                              originsLocation: try reader.location(node, key: "originsLocation"))
            }
        }
    }
}
