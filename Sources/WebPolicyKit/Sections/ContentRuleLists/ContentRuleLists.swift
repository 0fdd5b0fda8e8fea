import WebPolicyRuntime

extension Sections {
    /// `content-rule-lists:` — WebKit lists the policy does not own, each added to the view
    /// as it is, after the policy's own.
    enum ContentRuleLists: PolicySection {
        static let key = "content-rule-lists"
        static let schemaDefinitions = [(definition: "contentRuleListEntry", keys: PolicyKeys.contentRuleListEntry)]
        static let entryKinds = [Coverage.Kind.contentRuleList.rawValue]
        static let ruleCategory = RuleCategory.contentRules
        static let pipelineSteps: [PipelineStep] = [.contentRules]

        static func decode(_ fields: Fields, into document: inout PolicyDocument, with decoder: inout PolicyDecoder) {
            document.contentRuleLists = decoder.section(key, in: fields) { $0.decodeContentRuleList($1) }
        }

        /// The references stay with their files; the loader reads each list they name once,
        /// in document order, into `Policy.contentRuleLists` (`PolicyLoader.readLists`): a list
        /// is a file to read, not a value to merge.
        static func merge(_ documents: [PolicyDocument], into policy: inout Policy) {}

        /// Each list as it is: its rules all come from its entry.
        static func lower(_ policy: Policy, lists: [RuntimeManifest.ListFile], into manifest: inout Manifest) {
            for list in lists {
                guard let external = list.external else { continue }
                var entry = Manifest.ContentRuleList(identifier: list.identifier, file: list.fileName, ruleCount: external.ruleCount, sha256: list.sha256,
                                                     sources: [Manifest.RuleSource(firstRule: 0, ruleCount: external.ruleCount, id: external.reference.id?.value,
                                                                                   location: external.reference.location)])
                entry.image = list.image
                manifest.contentRuleLists.append(entry)
            }
        }

        static func diffEntries(_ node: YAMLNode, in file: SourceFile, policy: Policy) -> [SectionEntry] {
            var entries = SectionEntry.list(node, in: file, kind: entryKinds[0]) { entry in
                let identity = entry.value("id") ?? entry.value("path")
                return (identity, "'\(identity ?? "")'")
            }
            // A list's rules live in its file: a changed file is a changed entry.
            for index in entries.indices {
                guard let list = policy.contentRuleLists.first(where: { $0.reference.location == entries[index].location }) else { continue }
                entries[index].fields.append(("rules", "\(list.rules.count), sha256 \(SHA256.hex(Array(list.file.text.utf8)).prefix(16))"))
            }
            return entries
        }

        static func coverageItems(of policy: Policy) -> [Coverage.Item] {
            policy.contentRuleLists.map { Coverage.Item(kind: .contentRuleList, name: $0.file.path, location: $0.reference.location) }
        }

        /// A list one of whose rules matched (its rules are written in the list's own file).
        static func markCoverage(of result: RequestResult, in marks: inout Coverage.Marks) {
            for origin in result.matchedRules {
                guard let location = origin.location, marks.item(at: location) == nil else { continue }
                marks.mark(named: location.path, .contentRuleList)
            }
        }

        static func census(_ document: PolicyDocument) -> Int { document.contentRuleLists.count }
        static func census(_ policy: Policy) -> Int { policy.contentRuleLists.count }
        static func census(_ manifest: Manifest) -> Int { manifest.contentRuleLists.filter { !PolicyCompiler.isOwnListFileName($0.file) }.count }
    }
}
