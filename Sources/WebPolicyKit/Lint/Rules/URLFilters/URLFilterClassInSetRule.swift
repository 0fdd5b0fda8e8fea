import URLFilter
import WebPolicyRuntime

struct URLFilterClassInSetRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.atomCharacter

    static let description = RuleDescription(
        id: "url-filter-class-in-set",
        name: "URL Filter Class In Set",
        category: .urlFilters,
        defaultSeverity: .error,
        summary: "WebKit url-filters do not support built-in classes such as `\\d` inside `[...]`.",
        rationale: """
        Inside a bracket set, WebKit's url-filter parser fails with "Builtins character class \
        atoms are not supported yet." on `\\d`, `\\w`, `\\s` and their negations. Write the \
        ranges out: `[0-9a-f]` rather than `[\\da-f]`.

        \(urlFilterRationaleSuffix)
        """,
        failing: [
            Example(#"""
            content-rules:
              - action: block
                url-filter: '/ad[↓\d_]+\.js'
            """#),
        ],
        passing: [
            Example(#"""
            content-rules:
              - action: block
                url-filter: '/ad[0-9_]+\.js'
            """#),
        ]
    )

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        ("the \(field) '\(pattern)' uses '\(offending)' inside a bracket set, which WebKit does not support",
         "write the range out, e.g. '0-9' for '\\d'")
    }
}
