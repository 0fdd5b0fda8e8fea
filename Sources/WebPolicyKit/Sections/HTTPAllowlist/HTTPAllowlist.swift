import WebPolicyRuntime

extension Sections {
    /// `http-allowlist:` — the plain-http hosts the view may load: ATS exceptions in the app,
    /// the scheme gate's http step in the runtime.
    enum HTTPAllowlist: ListSection {
        static let key = "http-allowlist"
        static let schemaDefinitions = [(definition: "httpAllowlistEntry", keys: PolicyKeys.httpAllowlistEntry)]
        static let entryKinds = [Coverage.Kind.httpAllowlist.rawValue]
        static let ruleCategory = RuleCategory.hosts
        static let pipelineSteps: [PipelineStep] = [.schemeGate]

        static var entriesOfDocument: WritableKeyPath<PolicyDocument, [Entry]> { \.httpAllowlist }
        static var entriesOfPolicy: WritableKeyPath<Policy, [Entry]> { \.httpAllowlist }

        static func decodeEntry(_ node: YAMLNode, with decoder: inout PolicyDecoder) -> HTTPAllowlistEntry? { decoder.decodeHTTPAllowlistEntry(node) }


        static func lower(_ policy: Policy, lists: [RuntimeManifest.ListFile], into manifest: inout Manifest) {
            manifest.httpAllowlist = policy.httpAllowlist.map { entry in
                Manifest.HTTPAllowlistEntry(host: entry.scope,
                                            reason: entry.reason?.value, location: entry.location)
            }
        }

        static func diffEntries(_ node: YAMLNode, in file: SourceFile, policy: Policy) -> [SectionEntry] {
            SectionEntry.list(node, in: file, kind: entryKinds[0]) { entry in (entry.value("host"), "'\(entry.value("host") ?? "")'") }
        }

        static func coverageItems(of policy: Policy) -> [Coverage.Item] {
            policy.httpAllowlist.map { Coverage.Item(kind: .httpAllowlist, name: $0.host.value, location: $0.location) }
        }

        /// The entry the scheme gate let a plain-http request through by.
        static func markCoverage(of result: RequestResult, in marks: inout Coverage.Marks) {
            guard result.decision.record.decidedAt == .schemeGate else { return }
            marks.mark(at: result.decision.decidedBy?.location, .httpAllowlist)
        }

        static func census(_ manifest: Manifest) -> Int { manifest.httpAllowlist.count }
    }
}
