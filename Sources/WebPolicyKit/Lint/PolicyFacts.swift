import URLFilter
import WebPolicyRuntime

/// Facts about one policy that several rules need, computed once per lint run: each url-filter
/// is parsed once however many url-filter rules look at it.
final class PolicyFacts {
    let policy: Policy
    let files: [String: SourceFile]

    /// A file whose every url regex WebKit's parser has already parsed and accepted (a bare
    /// list that `lint` reads): only those that match every URL are anything but a filter.
    struct AcceptedRegexes {
        var path: String
        var matchingEverything: Set<SourceRange>
    }
    private let acceptedRegexes: AcceptedRegexes?
    /// What the last lint of the same buffer worked out (an editor's server), or nil.
    let memo: LintMemo?

    init(policy: Policy, files: [SourceFile], acceptedRegexes: AcceptedRegexes? = nil, memo: LintMemo? = nil) {
        self.policy = policy
        self.acceptedRegexes = acceptedRegexes
        self.memo = memo
        self.files = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// How each string value that a finding points into lies in its file, worked out once
    /// however many findings (one per bad character, say) point into it.
    private var scalarMappings: [SourceLocation: ScalarSourceMap.Mapping] = [:]

    func scalarMapping(of text: LocatedString) -> ScalarSourceMap.Mapping? {
        if let known = scalarMappings[text.location] { return known }
        guard let file = files[text.location.path] else { return nil }
        let mapping = ScalarSourceMap.mapping(value: text.value, style: text.style, range: text.location.range, in: file)
        scalarMappings[text.location] = mapping
        return mapping
    }

    /// Whether two content rules start on one line (a minified list, a JSON policy written
    /// flow-style): then "line N" alone does not say which rule a message means.
    private lazy var rulesShareLines: Bool = {
        let rules = policy.contentRules
        return zip(rules, rules.dropFirst()).contains { $0.location.path == $1.location.path && $0.location.start.line == $1.location.start.line }
    }()

    /// How a message names the place of another content rule: "line 12", or "line 1, column
    /// 2201" where rules share lines.
    func place(of rule: ContentRule) -> String {
        let start = rule.location.start
        return rulesShareLines ? "line \(start.line), column \(start.column)" : "line \(start.line)"
    }

    struct RegexField {
        var text: LocatedString
        /// `url-filter`, `if-top-url`, …
        var field: String
        var result: URLFilterParseResult
        /// The content rule the regex belongs to.
        var rule: ContentRule
    }

    /// The WebKit regexes of the policy's content rules that are not plain `ok`, parsed as
    /// WebKit parses them and grouped by status, so each url-filter rule reads only its own.
    lazy var regexFieldsByStatus: [URLFilterParseStatus: [RegexField]] = {
        var byStatus: [URLFilterParseStatus: [RegexField]] = [:]
        for field in regexFieldsOfRules.joined() { byStatus[field.result.status, default: []].append(field) }
        return byStatus
    }()

    /// Each content rule's regexes that WebKit's parser does not take as a plain filter.
    private var regexFieldsOfRules: [[RegexField]] {
        let rules = policy.contentRules
        guard acceptedRegexes == nil else { return regexFields(of: rules, findings(of: rules)) }
        // A rule brings what was found of its regexes before (`ContentRuleDerived`).
        let unknown = rules.indices.filter { rules[$0].derived.regexFindings == nil }
        for (index, findings) in zip(unknown, findings(of: unknown.map { rules[$0] })) { rules[index].derived.regexFindings = findings }
        return regexFields(of: rules, rules.map { $0.derived.regexFindings ?? [] })
    }

    private func findings(of rules: [ContentRule]) -> [[RegexFinding]] {
        var inputs: [(rule: Int, field: Int)] = []
        var keys: [URLFilterParseKey] = []
        for (index, rule) in rules.enumerated() {
            for (position, field) in rule.trigger.regexFields.enumerated() {
                if let accepted = acceptedRegexes, field.text.location.path == accepted.path, !accepted.matchingEverything.contains(field.text.location.range) { continue }
                inputs.append((index, position))
                keys.append(URLFilterParseKey(pattern: field.text.value, caseSensitive: field.caseSensitive))
            }
        }
        let patterns = keys
        let results = memo?.parses.values(for: patterns) { (URLFilterParser.parse(patterns[$0].pattern, caseSensitive: patterns[$0].caseSensitive), true) }
            ?? patterns.parallelMap { URLFilterParser.parse($0.pattern, caseSensitive: $0.caseSensitive) }
        var findings = [[RegexFinding]](repeating: [], count: rules.count)
        for (input, result) in zip(inputs, results) {
            if case .filter = result { continue }
            findings[input.rule].append(RegexFinding(field: input.field, result: result))
        }
        return findings
    }

    private func regexFields(of rules: [ContentRule], _ findings: [[RegexFinding]]) -> [[RegexField]] {
        zip(rules, findings).map { rule, findings in
            guard !findings.isEmpty else { return [] }
            let fields = rule.trigger.regexFields
            return findings.map { RegexField(text: fields[$0.field].text, field: fields[$0.field].field, result: $0.result, rule: rule) }
        }
    }

    struct HostFieldValue {
        var text: LocatedString
        var field: HostField
        var problems: [HostProblem]
    }

    /// Every host pattern in the policy that has problems, with them.
    lazy var hostFields: [HostFieldValue] = {
        var values: [(LocatedString, HostField)] = []
        values += policy.httpAllowlist.map { ($0.host, .httpAllowlist) }
        values += policy.contentRules.flatMap { rule in (rule.trigger.hosts?.value ?? []).map { ($0, .contentRuleHosts) } }
        values += policy.cookies.map { ($0.domain, .cookieDomain) }
        values += policy.interception.flatMap { rule in (rule.hosts?.value ?? []).map { ($0, .interceptionHosts) } }
        values += ((policy.navigation?.pages ?? []) + (policy.navigation?.frames ?? [])).map { ($0.host, .navigationEntry) }
        values += (policy.webView?.permissions?.value ?? []).flatMap { $0.origins.map { ($0, .permissionOrigin) } }
        return values.compactMap { text, field in
            let problems = HostPatternAnalysis.analyze(text.value, field: field)
            return problems.isEmpty ? nil : HostFieldValue(text: text, field: field, problems: problems)
        }
    }()

    /// The content rules as WebKit JSON, sugar expanded.
    /// Each content rule's trigger as comparable data, in policy order.
    lazy var triggerShapes: [TriggerShape] = policy.contentRules.parallelMap { rule in
        // A rule brings its shape from the last lint (`ContentRuleDerived`).
        if let shape = rule.derived.shape { return shape }
        let shape = TriggerShape(rule.trigger)
        rule.derived.shape = shape
        return shape
    }

    lazy var loweredRules: [LoweredRule] = ContentBlockerLowering.lower(policy)

    /// How many rules the content rules lower to, counted without building them.
    lazy var loweredRuleCount: Int = policy.contentRules.reduce(0) { $0 + ContentBlockerLowering.loweredCount(of: $1) }

    /// How the lowered rules split into lists for the target, with the conflicts a split
    /// causes; nil when they fit one list (the common case, decided without lowering).
    lazy var rulePlan: RuleListPlan? = loweredRuleCount > RuleListSplitter.maximumRules(for: policy.targetVersion)
        ? RuleListSplitter.plan(loweredRules, target: policy.targetVersion)
        : nil

    /// The Public Suffix List webpolicy ships, compiled into it.
    lazy var publicSuffixes = PublicSuffixList.bundled()

    /// Every scheme the policy names: allowlisted ones and intercepted ones.
    lazy var schemeFields: [(text: LocatedString, field: String)] =
        policy.schemeAllowlist.map { ($0.scheme, "scheme-allowlist") } + policy.interception.map { ($0.scheme, "interception") }
}
