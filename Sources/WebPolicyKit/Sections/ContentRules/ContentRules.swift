import WebPolicyRuntime

extension Sections {
    /// `content-rules:` — the policy's own WebKit content rules: lowered to WebKit's JSON
    /// (`ContentBlockerLowering`), split into lists (`RuleListSplitter`), decided by the
    /// runtime's content-rules step.
    enum ContentRules: ListSection {
        static let key = "content-rules"
        static let schemaDefinitions = [
            (definition: "contentRule", keys: PolicyKeys.contentRule),
            (definition: "redirect", keys: PolicyKeys.redirect),
            (definition: "urlTransform", keys: PolicyKeys.urlTransform),
            (definition: "headerOperation", keys: PolicyKeys.headerOperation),
        ]
        static let entryKinds = [Coverage.Kind.contentRule.rawValue]
        static let ruleCategory = RuleCategory.contentRules
        static let pipelineSteps: [PipelineStep] = [.contentRules]

        static var entriesOfDocument: WritableKeyPath<PolicyDocument, [Entry]> { \.contentRules }
        static var entriesOfPolicy: WritableKeyPath<Policy, [Entry]> { \.contentRules }

        static func decodeEntry(_ node: YAMLNode, with decoder: inout PolicyDecoder) -> ContentRule? { decoder.decodeContentRule(node) }

        static func merge(_ documents: [PolicyDocument], into policy: inout Policy) {
            // One file (the common case) shares its array instead of copying every rule.
            policy.contentRules = documents.count == 1 ? documents[0].contentRules : documents.flatMap(\.contentRules)
        }

        /// The policy's own lists, each with where its rules come from (a `hosts:` rule
        /// expands to many consecutive rules), so the app maps a WebKit rule back to the policy.
        static func lower(_ policy: Policy, lists: [RuntimeManifest.ListFile], into manifest: inout Manifest) {
            for list in lists where list.external == nil {
                var entry = Manifest.ContentRuleList(identifier: list.identifier, file: list.fileName, ruleCount: list.rules.count,
                                                     sha256: list.sha256, sources: RuntimeManifest.sources(of: list.rules))
                entry.image = list.image
                manifest.contentRuleLists.append(entry)
            }
        }

        static func diffEntries(_ node: YAMLNode, in file: SourceFile, policy: Policy) -> [SectionEntry] {
            SectionEntry.list(node, in: file, kind: entryKinds[0]) { entry in
                let id = entry.value("id")
                return (id, id.map { "'\($0)'" } ?? [entry.value("action"), entry.value("url-filter").map { "'\($0)'" }].compactMap { $0 }.joined(separator: " "))
            }
        }

        static func coverageItems(of policy: Policy) -> [Coverage.Item] {
            policy.contentRules.map { rule in
                Coverage.Item(kind: .contentRule, name: rule.id.map { "'\($0.value)'" } ?? rule.action.value.rawValue, location: rule.location)
            }
        }

        /// Every rule of the policy's own whose trigger matched, ignored or not.
        static func markCoverage(of result: RequestResult, in marks: inout Coverage.Marks) {
            for origin in result.matchedRules { marks.mark(at: origin.location, .contentRule) }
        }

        static func census(_ manifest: Manifest) -> Int {
            manifest.contentRuleLists.filter { PolicyCompiler.isOwnListFileName($0.file) }.reduce(0) { $0 + $1.sources.count }
        }
    }
}
