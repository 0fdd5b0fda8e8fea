import WebPolicyRuntime

extension Sections {
    /// `interception:` — the requests the app answers itself (`WKURLSchemeHandler`): the
    /// runtime's interception step, and the app's scheme handlers.
    enum Interception: PolicySection {
        static let key = "interception"
        static let schemaDefinitions = [(definition: "interceptionRule", keys: PolicyKeys.interceptionRule)]
        static let entryKinds = [Coverage.Kind.interception.rawValue]

        static func decode(_ fields: Fields, into document: inout PolicyDocument, with decoder: inout PolicyDecoder) {
            document.interception = decoder.section(key, in: fields) { $0.decodeInterceptionRule($1) }
        }

        static func merge(_ documents: [PolicyDocument], into policy: inout Policy) {
            policy.interception = documents.flatMap(\.interception)
        }

        static func lower(_ policy: Policy, lists: [RuntimeManifest.ListFile], into manifest: inout Manifest) {
            manifest.interception = policy.interception.map(lowered)
        }

        static func lowered(_ rule: InterceptionRule) -> Manifest.Interception {
            var result = Manifest.Interception(id: rule.id?.value, scheme: rule.scheme.value)
            result.hosts = rule.hosts?.value.map { Manifest.HostMatch(pattern: $0.value) }
            result.paths = rule.paths?.value.map(\.value)
            result.methods = rule.methods?.value.map { $0.value.rawValue.uppercased() }
            result.serve = rule.serve?.value
            result.handler = rule.handler?.value
            result.location = rule.location
            return result
        }

        static func diffEntries(_ node: YAMLNode, in file: SourceFile, policy: Policy) -> [SectionEntry] {
            SectionEntry.list(node, in: file, kind: entryKinds[0]) { entry in
                let identity = entry.value("id") ?? entry.value("scheme")
                return (identity, "'\(identity ?? "")'")
            }
        }

        static func coverageItems(of policy: Policy) -> [Coverage.Item] {
            policy.interception.map { Coverage.Item(kind: .interception, name: $0.id.map { "'\($0.value)'" } ?? $0.scheme.value, location: $0.location) }
        }

        static func census(_ document: PolicyDocument) -> Int { document.interception.count }
        static func census(_ policy: Policy) -> Int { policy.interception.count }
        static func census(_ manifest: Manifest) -> Int { manifest.interception.count }
    }
}
