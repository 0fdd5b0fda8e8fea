/// `contentRuleLists`: each compiled list, its digest and image, and where its rules came
/// from. Written last: the largest member, and the one an app may read past (`sources`).
extension Manifest {
    enum ContentRuleListsPart: ManifestPart {
        static let member = "contentRuleLists"
        static let since = 1

        static func write(_ manifest: Manifest, _ writer: ManifestWriter) -> JSONValue? {
            .array(manifest.contentRuleLists.map { list in
                var members: [(String, JSONValue)] = [("identifier", .string(list.identifier)), ("file", .string(list.file)), ("ruleCount", .int(list.ruleCount))]
                if let sha256 = list.sha256 { members.append(("sha256", .string(sha256))) }
                if let image = list.image { members.append(("image", .string(image))) }
                members.append(("sources", .array(list.sources.map { source in
                    var members: [(String, JSONValue)] = [("firstRule", .int(source.firstRule)), ("ruleCount", .int(source.ruleCount))]
                    if let id = source.id { members.append(("id", .string(id))) }
                    return .object(members + writer.location(source.location))
                })))
                return .object(members)
            })
        }

        static func read(_ root: JSONNode, into manifest: inout Manifest, _ reader: ManifestReader) throws(Manifest.DecodingError) {
            manifest.contentRuleLists = try reader.objects(root, member).map { entry throws(Manifest.DecodingError) in
                let sources = try reader.objects(entry, "sources").map { source throws(Manifest.DecodingError) in
                    RuleSource(firstRule: try reader.int(reader.required(source, "firstRule"), "firstRule"),
                               ruleCount: try reader.int(reader.required(source, "ruleCount"), "ruleCount"),
                               id: try reader.optionalString(source, "id"), location: try reader.location(source))
                }
                var list = ContentRuleList(identifier: try reader.string(entry, "identifier"), file: try reader.string(entry, "file"),
                                           ruleCount: try reader.int(reader.required(entry, "ruleCount"), "ruleCount"),
                                           sha256: try reader.optionalString(entry, "sha256"), sources: sources)
                list.image = try reader.optionalString(entry, "image")
                return list
            }
        }
    }
}
