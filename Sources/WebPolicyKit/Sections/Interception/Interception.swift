import WebPolicyRuntime

extension Sections {
    /// `interception:` — the requests the app answers itself (`WKURLSchemeHandler`): the
    /// runtime's interception step, and the app's scheme handlers.
    enum Interception: ListSection {
        static let key = "interception"
        static let schemaDefinitions = [(definition: "interceptionRule", keys: PolicyKeys.interceptionRule)]
        static let entryKinds = [Coverage.Kind.interception.rawValue]
        static let ruleCategory = RuleCategory.interception
        static let pipelineSteps: [PipelineStep] = [.interception]

        static var entriesOfDocument: WritableKeyPath<PolicyDocument, [Entry]> { \.interception }
        static var entriesOfPolicy: WritableKeyPath<Policy, [Entry]> { \.interception }

        static func decodeEntry(_ node: YAMLNode, with decoder: inout PolicyDecoder) -> InterceptionRule? { decoder.decodeInterceptionRule(node) }


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

        /// The rule that served the request.
        static func markCoverage(of result: RequestResult, in marks: inout Coverage.Marks) {
            marks.mark(at: result.decision.interception?.location, .interception)
        }

        static func census(_ manifest: Manifest) -> Int { manifest.interception.count }
    }
}
