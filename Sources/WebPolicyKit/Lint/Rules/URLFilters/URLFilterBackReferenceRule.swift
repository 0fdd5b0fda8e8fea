import URLFilter
import WebPolicyRuntime

struct URLFilterBackReferenceRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.backReference

    static let description = RuleDescription(
        id: "url-filter-back-reference",
        name: "URL Filter Back-Reference",
        category: .urlFilters,
        defaultSeverity: .error,
        summary: "WebKit url-filters do not support back-references to named groups (`\\k<name>`).",
        rationale: """
        WebKit's url-filter parser fails with "Patterns cannot contain backreferences." on a \
        named back-reference `\\k<name>` to a named group. Numbered ones never get there: \
        WebKit parses with a back-reference limit of 0, so `\\1` is the octal escape for \
        character 1 (which is why WebKit's own test expects `(a)\\1` to parse) — almost \
        certainly not what was meant either.

        \(urlFilterRationaleSuffix)
        """,
        failing: [
            Example(#"""
            content-rules:
              - action: block
                url-filter: '(?<host>[a-z]+)/↓\k<host>'
            """#),
        ],
        passing: [
            Example(#"""
            content-rules:
              - action: block
                url-filter: '([a-z]+)/[a-z]+'
            """#),
        ]
    )

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        ("the \(field) '\(pattern)' uses the back-reference '\(offending)', which WebKit does not support",
         "a DFA cannot remember what a group matched; repeat the pattern instead")
    }
}
