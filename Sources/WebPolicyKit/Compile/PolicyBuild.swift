import Foundation
import WebPolicyRuntime

/// One build of a policy: its content rules lowered to WebKit's JSON and split into lists at
/// the target's limit, the lists it references after them, each under the file name compile
/// writes it, and from those the manifest and the decision engine. Made once and handed to
/// compile, simulate, explain, verify and diff, so no two of them can lower, split or name the
/// lists differently.
public struct PolicyBuild: Sendable {
    public let policy: Policy
    /// The file-name-safe policy name every artefact starts with.
    public let slug: String
    /// The policy's own rules, lowered and split; no split conflicts (lint reports those).
    public let plan: RuleListPlan
    /// Every list in the order the app adds them: the policy's own, then those it references.
    public let lists: [List]

    /// One content-rule list of the build.
    public struct List: Sendable {
        /// As compile writes it: `NAME.content-rules.json`, `NAME.content-rules-2.json`,
        /// `NAME.content-rules.LIST.json`.
        public var fileName: String
        /// The policy's own lowered rules (empty for a list it references).
        public var rules: [LoweredRule]
        /// The position of the list's first rule among all the policy's own rules.
        public var firstRule: Int
        /// The list the policy references, read by the loader; nil for its own.
        public var external: ExternalContentRuleList?
        /// For a referenced list, the name in its file name and identifier.
        public var externalName: String?
    }

    public init(_ policy: Policy) {
        self.policy = policy
        slug = PolicyCompiler.slug(policy.name ?? "policy")
        plan = RuleListSplitter.plan(ContentBlockerLowering.lower(policy), target: policy.targetVersion, checkConflicts: false)
        var lists: [List] = []
        var offset = 0
        for (index, rules) in plan.lists.enumerated() {
            lists.append(List(fileName: PolicyCompiler.listFileName(slug: slug, index: index, of: plan.lists.count), rules: rules, firstRule: offset))
            offset += rules.count
        }
        for (external, name) in zip(policy.contentRuleLists, PolicyCompiler.externalListNames(policy)) {
            lists.append(List(fileName: PolicyCompiler.externalListFileName(slug: slug, list: name), rules: [], firstRule: 0, external: external, externalName: name))
        }
        self.lists = lists
    }

    /// The policy's own lowered rules by position, across its lists.
    public var loweredRules: [LoweredRule] { plan.lists.flatMap { $0 } }

    /// The lists as the manifest names them when nothing is written (simulate, explain):
    /// without checksums or images, which decide nothing.
    public var unwrittenListFiles: [RuntimeManifest.ListFile] {
        lists.map { list in
            RuntimeManifest.ListFile(identifier: list.externalName ?? slug, fileName: list.fileName, rules: list.rules,
                                     external: list.external.map { ($0.reference, $0.rules.count) })
        }
    }

    /// The decision engine of the build: each list's engine (from `engineCache` when an
    /// earlier run left its image there for the same rules), and the manifest as compile
    /// writes it.
    public func engine(publicSuffixList: PublicSuffixList, engineCache: EngineCache? = nil) -> DecisionEngine {
        func makeEngine(_ rules: [(rule: JSONValue, origin: RuleOrigin)]) -> ContentRuleEngine {
            guard let engineCache else { return ContentRuleEngine(rules: rules) }
            return engineCache.engine(for: EngineCache.Key(rules: rules)) { ContentRuleEngine(rules: rules) } ?? ContentRuleEngine(rules: rules)
        }
        let engines = lists.map { list in
            if let external = list.external {
                return makeEngine(external.rules.map { rule in
                    (rule.rule, RuleOrigin(index: rule.index, id: nil, location: external.file.location(rule.range)))
                })
            }
            return makeEngine(list.rules.enumerated().map { index, rule in
                (rule.json, RuleOrigin(index: list.firstRule + index, id: rule.source.id?.value, location: rule.source.location, expansion: rule.expansion))
            })
        }
        return DecisionEngine(lists: engines, rules: RuntimeManifest.make(policy, lists: unwrittenListFiles), publicSuffixList: publicSuffixList)
    }
}
