import URLFilter
import WebPolicyRuntime

struct URLFilterQuantifierRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.invalidQuantifier

    static let description = RuleDescription(
        id: "url-filter-quantifier",
        name: "URL Filter Quantifier",
        category: .urlFilters,
        defaultSeverity: .error,
        summary: "WebKit url-filters only repeat with `?`, `*` and `+` (or `{0,1}`, `{0,}`, `{1,}`).",
        rationale: """
        WebKit's url-filter parser maps `{0,1}`, `{0,}` and `{1,}` to `?`, `*` and `+`, and fails \
        with "Arbitrary atom repetitions are not supported." on every other count, such as \
        `{2}` or `{1,3}`. Write the atom out (`aa` for `a{2}`, `aa?a?` for `a{1,3}`).

        \(urlFilterRationaleSuffix)
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: '/ad[0-9]↓{2}/'
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                url-filter: '/ad[0-9][0-9]/'
              - action: block
                url-filter: '/x[0-9]{1,}/'
            """),
        ]
    )

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        ("the \(field) '\(pattern)' repeats with '\(offending)', which WebKit does not support",
         "write the atom out as often as needed; only ?, *, + and {0,1}, {0,}, {1,} are accepted")
    }
}
