import URLFilter
import WebPolicyRuntime

struct ConditionDomainRegexRule: LintRule {
    static let description = RuleDescription(
        id: "condition-domain-regex",
        name: "Condition Domain Regex",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "An `if-domain`/`unless-domain` entry must be a plain domain: WebKit pastes it into a regex and escapes only a few characters.",
        rationale: """
        WebKit turns each domain condition into the url-filter \
        `[a-z][a-z+.-]*:\\/\\/([^/]*\\.)*<domain>[:/]`, escaping only `\\ { } [ . ? * $` \
        (`getDomainList`). Anything else a domain may carry — `(`, `|`, `^`, `+`, `]` — goes into \
        the regex as written, and a regex WebKit's parser refuses fails the whole list with \
        `JSONInvalidRegex` (brave/brave-browser#36039: "Start of line assertion can only appear \
        as the first term in a filter"). A regex WebKit's parser accepts is no better: in \
        `ex(ample).com` the parentheses are a group, so the condition holds on `example.com`, \
        not on the name written — a warning, since the list still compiles. An escaped \
        character no host holds (`ex*ample.com`) makes the condition never hold. Domain \
        conditions are not patterns: `*` is only meaningful first, for "and its subdomains".
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                if-domain: ["news↓|sport.example.com"]
            """),
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                unless-domain: ["↓^example.com"]
            """),
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                if-domain: ["ex↓(ample).com"]
            """),
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                if-domain: ["*shop↓+.example.com"]
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                url-filter: ads
                unless-domain: ["*example.com", news.example.org]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for rule in policy.contentRules {
            let caseSensitive = rule.trigger.topURLFilterIsCaseSensitive?.value ?? false
            for condition in rule.trigger.conditions where condition.kind.takesDomains {
                for entry in condition.values where !entry.value.isEmpty && entry.value.unicodeScalars.allSatisfy({ $0.isASCII && !("A"..."Z").contains($0) }) {
                    let scalars = Array(entry.value.unicodeScalars)
                    let start = entry.value.hasPrefix("*") ? 1 : 0
                    // A plain domain pastes only literal characters into WebKit's regex, which
                    // its parser always accepts: no need to parse one per entry of a long list.
                    guard let firstBad = scalars.indices.dropFirst(start).first(where: { !isDomainCharacter(scalars[$0]) }) else { continue }
                    let regex = WebKitDomainCondition.regex(for: entry.value)
                    if case .rejected(let problem) = URLFilterParser.parse(regex, caseSensitive: caseSensitive) {
                        context.report("the \(condition.kind.rawValue) domain '\(entry.value)' makes WebKit's regex '\(regex)' fail: \(problem.status.webKitMessage)",
                                       at: context.location(in: entry, offset: firstBad),
                                       hint: "a domain condition is a plain domain, with an optional leading '*' for its subdomains",
                                       notes: [.webKitRefuses(.jsonInvalidRegex)])
                        continue
                    }
                    // WebKit accepts the regex, but it is not the domain written.
                    let bad = firstBad
                    let character = scalars[bad]
                    let message = Self.escapedByWebKit.contains(character)
                        ? "the \(condition.kind.rawValue) domain '\(entry.value)' holds '\(character)', which no host name holds: WebKit matches it literally, so the condition never holds"
                        : "the \(condition.kind.rawValue) domain '\(entry.value)' holds '\(character)', which no host name holds: WebKit reads it as regular-expression syntax in '\(regex)', so the condition is not the domain written"
                    context.report(message, at: context.location(in: entry, offset: bad),
                                   hint: "write the domain as a host name spells it, with an optional leading '*' for its subdomains", severity: .warning)
                }
            }
        }
    }

    /// The characters `getDomainList` escapes before it builds the regex.
    static let escapedByWebKit: Set<Unicode.Scalar> = ["\\", "{", "}", "[", "?", "*", "$"]

    /// What a host name holds; `:` too, since WebKit's regex then matches it as the port.
    private func isDomainCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "." || scalar == "-" || scalar == "_" || scalar == ":"
    }
}
