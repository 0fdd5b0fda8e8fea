import WebPolicyRuntime

struct ConditionDomainCaseRule: LintRule {
    static let description = RuleDescription(
        id: "condition-domain-case",
        name: "Condition Domain Case",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "`if-domain` and `unless-domain` entries must be lowercase ASCII (punycode for international names).",
        rationale: """
        WebKit's `getDomainList` refuses a domain with an uppercase or non-ASCII character \
        (`containsOnlyASCIIWithNoUppercase`) with `JSONDomainNotLowerCaseASCII`: "Domains must be \
        lower case ASCII. Use punycode to encode non-ASCII characters." One such entry fails the \
        whole rule list; the message suggests the spelling WebKit accepts.
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                if-domain: [news.↓Example.com]
            """),
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                unless-domain: ["*m↓ünchen.example"]
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                unless-domain: ["*xn--mnchen-3ya.example", news.example.com]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for rule in policy.contentRules {
            for condition in rule.trigger.conditions where condition.kind.takesDomains {
                for entry in condition.values {
                    let scalars = Array(entry.value.unicodeScalars)
                    guard let bad = scalars.firstIndex(where: { !$0.isASCII || ("A"..."Z").contains($0) }) else { continue }
                    let suggestion = scalars[bad].isASCII
                        ? entry.value.lowercased()
                        : (entry.value.hasPrefix("*") ? "*" : "") + (Punycode.toASCII(host: String(entry.value.drop { $0 == "*" })) ?? entry.value)
                    context.report("the \(condition.kind.rawValue) domain '\(entry.value)' is not lowercase ASCII",
                                   at: context.location(in: entry, offset: bad), hint: "write '\(suggestion)'",
                                   notes: [.webKitRefuses(.jsonDomainNotLowerCaseASCII)])
                }
            }
        }
    }
}
