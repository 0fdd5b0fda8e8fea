import WebPolicyRuntime

extension Sections {
    /// `runtime-hosts:` — servers the policy names by role because the app learns their
    /// address at run time (`${server}` in a host pattern); the runtime's binding step, and
    /// `NSAllowsLocalNetworking` in the ATS fragment for a role that may use plain http on the
    /// local network.
    enum RuntimeHosts: PolicySection {
        static let key = "runtime-hosts"
        static let schemaDefinitions = [(definition: "runtimeHost", keys: PolicyKeys.runtimeHost)]
        static let entryKinds = [Coverage.Kind.runtimeHost.rawValue]
        static let ruleCategory = RuleCategory.runtimeHosts
        static let pipelineSteps: [PipelineStep] = [.binding]

        static func decode(_ fields: Fields, into document: inout PolicyDocument, with decoder: inout PolicyDecoder) {
            guard let node = fields.value(key) else { return }
            document.runtimeHosts = decoder.decodeRuntimeHosts(node)
        }

        /// Roles of every file, in order; a role named again is lint's (`role-duplicate`), and
        /// the first one binds.
        static func merge(_ documents: [PolicyDocument], into policy: inout Policy) {
            policy.runtimeHosts = documents.flatMap(\.runtimeHosts)
        }

        static func lower(_ policy: Policy, lists: [RuntimeManifest.ListFile], into manifest: inout Manifest) {
            manifest.runtimeHosts = policy.runtimeHosts.map(\.runtimeHost)
        }

        /// Each role by its name.
        static func diffEntries(_ node: YAMLNode, in file: SourceFile, policy: Policy) -> [SectionEntry] {
            (node.mapping ?? []).map { pair in
                let name = pair.key.scalar?.value ?? ""
                var fields: [(String, String)] = []
                SectionEntry.flatten(pair.value, into: &fields, prefix: "")
                return SectionEntry(kind: entryKinds[0], key: name, name: "${\(name)}", location: file.location(pair.key.range), fields: fields)
            }
        }

        static func coverageItems(of policy: Policy) -> [Coverage.Item] {
            policy.runtimeHosts.map { Coverage.Item(kind: .runtimeHost, name: $0.reference, location: $0.location) }
        }

        /// The role a binding named, accepted or refused.
        static func markCoverage(of result: RequestResult, in marks: inout Coverage.Marks) {
            guard let bind = result.entry.bind else { return }
            marks.mark(named: "${\(bind.role)}", .runtimeHost)
        }

        static func census(_ document: PolicyDocument) -> Int { document.runtimeHosts.count }
        static func census(_ policy: Policy) -> Int { policy.runtimeHosts.count }
        static func census(_ manifest: Manifest) -> Int { manifest.runtimeHosts.count }
    }
}
