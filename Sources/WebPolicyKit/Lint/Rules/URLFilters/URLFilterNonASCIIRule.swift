import URLFilter
import WebPolicyRuntime

struct URLFilterNonASCIIRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.nonASCII

    static let description = RuleDescription(
        id: "url-filter-non-ascii",
        name: "URL Filter Non-ASCII",
        category: .urlFilters,
        defaultSeverity: .error,
        summary: "WebKit url-filters may only contain ASCII characters, escapes such as `\\u00e9` included.",
        rationale: """
        WebKit checks `containsOnlyASCII()` before anything else and fails with "Only ASCII \
        characters are supported in pattern."; an escape that produces a non-ASCII character \
        (`\\xff`, `\\u00e9`) fails the same way. Rules see the canonical URL: hosts in punycode, \
        paths percent-encoded — match those spellings (`xn--mnchen-3ya`, `%C3%A9`).

        \(urlFilterRationaleSuffix)
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: '/caf↓é/'
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                url-filter: '/caf%C3%A9/'
            """),
        ]
    )

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        ("the \(field) '\(pattern)' contains '\(offending)', which is not ASCII",
         "match the URL as WebKit sees it: punycode hosts (xn--…) and percent-encoded paths (%C3%A9)")
    }
}
