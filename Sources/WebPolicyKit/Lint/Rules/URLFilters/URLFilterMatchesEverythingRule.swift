import URLFilter
import WebPolicyRuntime

struct URLFilterMatchesEverythingRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.matchesEverything

    static let description = RuleDescription(
        id: "url-filter-matches-everything",
        name: "URL Filter Matches Everything",
        category: .urlFilters,
        defaultSeverity: .warning,
        summary: "A url-filter that can match the empty string matches every URL.",
        rationale: """
        A pattern whose every term is optional (`.*`, `a*`, `(foo)?`) matches every URL; \
        WebKit's parser classifies it as `MatchesEverything` and compiles the rule into a \
        "universal" action attached to every load, evaluated before any url-filter. That is \
        rarely intended for `block`; for `make-https` prefer `^http:` (make-https only \
        upgrades http and ws anyway). A condition entry that matches everything makes \
        `if-top-url` always true and `unless-top-url` never true.
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: ↓"(ads)?"
            """),
            Example("""
            content-rules:
              - action: block
                url-filter: tracker
                unless-top-url: [↓".*"]
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: make-https
                url-filter: "^http:"
            """),
        ]
    )

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        if field == "url-filter" {
            return ("the url-filter '\(pattern)' matches every URL; WebKit turns the rule into a universal action",
                    "anchor the pattern (e.g. '^https?://') or make some term required")
        }
        let effect = field.hasPrefix("if-") ? "always true" : "never true"
        return ("the \(field) entry '\(pattern)' matches every URL, so the condition is \(effect)", "remove the condition or narrow the pattern")
    }
}
