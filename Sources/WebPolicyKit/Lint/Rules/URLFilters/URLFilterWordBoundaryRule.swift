import URLFilter
import WebPolicyRuntime

struct URLFilterWordBoundaryRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.wordBoundary

    static let description = RuleDescription(
        id: "url-filter-word-boundary",
        name: "URL Filter Word Boundary",
        category: .urlFilters,
        defaultSeverity: .error,
        summary: "WebKit url-filters do not support the `\\b` and `\\B` word-boundary assertions.",
        rationale: """
        WebKit's url-filter parser fails with "Word boundaries assertions are not supported \
        yet." Match the delimiter itself instead, e.g. `[/?.]ads[/?.]` or `/ads/`.

        \(urlFilterRationaleSuffix)
        """,
        failing: [
            Example(#"""
            content-rules:
              - action: block
                url-filter: '↓\bads\b'
            """#),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                url-filter: '[/.]ads[/.]'
            """),
        ]
    )

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        ("the \(field) '\(pattern)' uses the word boundary '\(offending)', which WebKit does not support",
         "match the delimiter instead, e.g. '[/?.]'")
    }
}
