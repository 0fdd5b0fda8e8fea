import URLFilter
import WebPolicyRuntime

struct URLFilterGroupRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.group

    static let description = RuleDescription(
        id: "url-filter-group",
        name: "URL Filter Group",
        category: .urlFilters,
        defaultSeverity: .error,
        summary: "WebKit url-filters do not support lookahead, lookbehind or modifier groups.",
        rationale: """
        WebKit's url-filter parser accepts plain groups `( )` and `(?: )` but fails with \
        "Groups are not supported yet." on lookaround assertions `(?= )`, `(?! )`, `(?<= )`, \
        `(?<! )` and modifier groups `(?i: )`. A DFA cannot look around; use a second rule with \
        `ignore-previous-rules` to carve out exceptions.

        \(urlFilterRationaleSuffix)
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: 'tracker↓(?!\\.example\\.com)'
            """),
        ],
        passing: [
            Example(#"""
            content-rules:
              - action: block
                url-filter: tracker
              - action: ignore-previous-rules
                url-filter: 'tracker\.example\.com'
            """#),
        ]
    )

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        ("the \(field) '\(pattern)' uses the group '\(offending)', which WebKit does not support",
         "only ( ) and (?: ) groups are allowed; express exceptions with a later 'ignore-previous-rules' rule")
    }
}
