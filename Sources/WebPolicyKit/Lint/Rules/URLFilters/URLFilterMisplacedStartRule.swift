import URLFilter
import WebPolicyRuntime

struct URLFilterMisplacedStartRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.misplacedStartOfLine

    static let description = RuleDescription(
        id: "url-filter-misplaced-start",
        name: "URL Filter Misplaced Start",
        category: .urlFilters,
        defaultSeverity: .error,
        summary: "`^` may only be the very first character of a url-filter, outside any group.",
        rationale: """
        WebKit's url-filter parser fails with "Start of line assertion can only appear as the \
        first term in a filter." when `^` follows anything, including an opening parenthesis: \
        `(^https)` and `a^` are both rejected. Inside brackets `[^...]` is negation and fine.

        \(urlFilterRationaleSuffix)
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: '(↓^https?://ads\\.)'
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                url-filter: '^https?://ads\\.[^/]+/'
            """),
        ]
    )

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        ("the \(field) '\(pattern)' has '^' after its start", "move '^' to the very beginning, outside any group, or remove it")
    }
}
