import URLFilter

/// Facts about one policy that several rules need, computed once per lint run: each url-filter
/// is parsed once however many url-filter rules look at it.
final class PolicyFacts {
    let policy: Policy
    let files: [String: SourceFile]

    init(policy: Policy, files: [SourceFile]) {
        self.policy = policy
        self.files = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    struct RegexField {
        var text: LocatedString
        /// `url-filter`, `if-top-url`, …
        var field: String
        var result: URLFilterParseResult
    }

    /// Every WebKit regex in the policy's content rules, parsed as WebKit parses it.
    lazy var regexFields: [RegexField] = policy.contentRules.flatMap { rule in
        rule.trigger.regexFields.map { field in
            RegexField(text: field.text, field: field.field, result: URLFilterParser.parse(field.text.value, caseSensitive: field.caseSensitive))
        }
    }

    struct HostFieldValue {
        var text: LocatedString
        var field: HostField
        var problems: [HostProblem]
    }

    /// Every host pattern in the policy with what is wrong with it.
    lazy var hostFields: [HostFieldValue] = {
        var values: [(LocatedString, HostField)] = []
        values += policy.httpAllowlist.map { ($0.host, .httpAllowlist) }
        values += policy.contentRules.flatMap { rule in (rule.trigger.hosts?.value ?? []).map { ($0, .contentRuleHosts) } }
        values += policy.cookies.map { ($0.domain, .cookieDomain) }
        values += policy.interception.flatMap { rule in (rule.hosts?.value ?? []).map { ($0, .interceptionHosts) } }
        return values.map { HostFieldValue(text: $0.0, field: $0.1, problems: HostPatternAnalysis.analyze($0.0.value, field: $0.1)) }
    }()

    /// Every scheme the policy names: allowlisted ones and intercepted ones.
    lazy var schemeFields: [(text: LocatedString, field: String)] =
        policy.schemeAllowlist.map { ($0.scheme, "scheme-allowlist") } + policy.interception.map { ($0.scheme, "interception") }
}
