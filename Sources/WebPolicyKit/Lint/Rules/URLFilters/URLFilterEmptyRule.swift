import URLFilter
import WebPolicyRuntime

struct URLFilterEmptyRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.emptyPattern

    static let description = RuleDescription(
        id: "url-filter-empty",
        name: "URL Filter Empty",
        category: .urlFilters,
        defaultSeverity: .error,
        summary: "A url-filter must not be empty.",
        rationale: """
        WebKit refuses an empty `url-filter` with `JSONInvalidURLFilterInTrigger` ("Invalid \
        url-filter object."); its url-filter parser calls an empty pattern "Empty pattern.". To \
        match every URL, write `.*` (and mind `url-filter-matches-everything`). Empty condition \
        entries are `condition-list-empty`'s.

        \(urlFilterRationaleSuffix)
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: ↓""
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                url-filter: ads
            """),
        ]
    )

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        ("the \(field) is empty", "write a pattern; '.*' matches every URL")
    }
}
