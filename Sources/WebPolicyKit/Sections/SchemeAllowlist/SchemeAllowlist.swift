import WebPolicyRuntime

extension Sections {
    /// `scheme-allowlist:` — the non-web schemes the view hands to the system: the scheme
    /// gate's hand-off in the runtime.
    enum SchemeAllowlist: ListSection {
        static let key = "scheme-allowlist"
        static let schemaDefinitions = [(definition: "schemeAllowlistEntry", keys: PolicyKeys.schemeAllowlistEntry)]
        static let entryKinds = [Coverage.Kind.schemeAllowlist.rawValue]
        static let ruleCategory = RuleCategory.schemes
        static let pipelineSteps: [PipelineStep] = [.schemeGate]

        static var entriesOfDocument: WritableKeyPath<PolicyDocument, [Entry]> { \.schemeAllowlist }
        static var entriesOfPolicy: WritableKeyPath<Policy, [Entry]> { \.schemeAllowlist }

        static func decodeEntry(_ node: YAMLNode, with decoder: inout PolicyDecoder) -> SchemeAllowlistEntry? { decoder.decodeSchemeAllowlistEntry(node) }


        static func lower(_ policy: Policy, lists: [RuntimeManifest.ListFile], into manifest: inout Manifest) {
            manifest.schemeAllowlist = policy.schemeAllowlist.map { entry in
                Manifest.SchemeAllowlistEntry(scheme: entry.scheme.value, hosts: entry.hosts?.value.map(\.value),
                                              paths: entry.paths?.value.map(\.value), location: entry.location)
            }
        }

        static func diffEntries(_ node: YAMLNode, in file: SourceFile, policy: Policy) -> [SectionEntry] {
            SectionEntry.list(node, in: file, kind: entryKinds[0]) { entry in (entry.value("scheme"), "'\(entry.value("scheme") ?? "")'") }
        }

        static func coverageItems(of policy: Policy) -> [Coverage.Item] {
            policy.schemeAllowlist.map { Coverage.Item(kind: .schemeAllowlist, name: $0.scheme.value, location: $0.location) }
        }

        /// The entry the scheme gate allowed or handed a scheme over by.
        static func markCoverage(of result: RequestResult, in marks: inout Coverage.Marks) {
            guard result.decision.record.decidedAt == .schemeGate else { return }
            marks.mark(at: result.decision.decidedBy?.location, .schemeAllowlist)
        }

        static func census(_ manifest: Manifest) -> Int { manifest.schemeAllowlist.count }
    }
}
