import URLFilter
import WebPolicyRuntime

struct URLFilterDisjunctionRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.disjunction

    static let description = RuleDescription(
        id: "url-filter-disjunction",
        name: "URL Filter Disjunction",
        category: .urlFilters,
        defaultSeverity: .error,
        summary: "WebKit url-filters have no alternation: `|` is not supported.",
        rationale: """
        WebKit's url-filter parser fails with "Disjunctions are not supported yet." on any `|`, \
        inside a group or not. Write one rule per alternative, or — for hosts — list them under \
        `hosts:`, which webpolicy compiles into one correctly escaped url-filter per host.

        \(urlFilterRationaleSuffix)
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: "^https?://(ads↓|track)\\\\.example\\\\.net/"
            """),
            Example("""
            content-rules:
              - action: block
                url-filter: .*
                if-top-url: ['^https://(www↓|m)\\.example\\.com/']
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                hosts: [ads.example.net, track.example.net]
            """),
        ]
    )

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        ("the \(field) '\(pattern)' uses '|', but WebKit's url-filters have no alternation",
         "write one rule per alternative, or list hosts under 'hosts:'")
    }
}
