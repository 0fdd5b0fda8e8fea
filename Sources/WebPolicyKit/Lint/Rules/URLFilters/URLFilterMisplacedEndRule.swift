import URLFilter
import WebPolicyRuntime

struct URLFilterMisplacedEndRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.misplacedEndOfLine

    static let description = RuleDescription(
        id: "url-filter-misplaced-end",
        name: "URL Filter Misplaced End",
        category: .urlFilters,
        defaultSeverity: .error,
        summary: "`$` may only be the very last character of a url-filter, outside any group.",
        rationale: """
        WebKit compiles `$` into a transition on an end-of-string sentinel and fails with "The \
        end of line assertion must be the last term in an expression." when anything follows \
        it — another term, a second `$`, or the group it sits in (`(js$)`).

        \(urlFilterRationaleSuffix)
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: '\\.js↓$\\?'
            """),
            Example("""
            content-rules:
              - action: block
                url-filter: '(\\.js↓$)'
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                url-filter: '\\.js$'
            """),
        ]
    )

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        ("the \(field) '\(pattern)' has '$' before its end", "move '$' to the very end, outside any group, or remove it")
    }
}
