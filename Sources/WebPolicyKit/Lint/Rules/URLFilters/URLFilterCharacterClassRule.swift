import URLFilter
import WebPolicyRuntime

struct URLFilterCharacterClassRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.unsupportedCharacterClass

    static let description = RuleDescription(
        id: "url-filter-character-class",
        name: "URL Filter Character Class",
        category: .urlFilters,
        defaultSeverity: .error,
        summary: "WebKit url-filters do not support `\\d`, `\\w`, `\\s` and their negations; `.` is the only built-in class.",
        rationale: """
        WebKit's url-filter parser accepts `.` and bracket sets, and fails with "Character class \
        is not supported." on `\\d`, `\\D`, `\\w`, `\\W`, `\\s` and `\\S`. Spell the set out: \
        `[0-9]` for `\\d`, `[A-Za-z0-9_]` for `\\w`.

        \(urlFilterRationaleSuffix)
        """,
        failing: [
            Example(#"""
            content-rules:
              - action: block
                url-filter: '/ad↓\d+\.js'
            """#),
        ],
        passing: [
            Example(#"""
            content-rules:
              - action: block
                url-filter: '/ad[0-9]+\.js'
            """#),
        ]
    )

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        let replacements = ["\\d": "[0-9]", "\\D": "[^0-9]", "\\w": "[A-Za-z0-9_]", "\\W": "[^A-Za-z0-9_]", "\\s": "[ ]", "\\S": "[^ ]"]
        let hint = replacements[offending].map { "write '\($0)' instead of '\(offending)'" } ?? "spell the set out with [...]"
        return ("the \(field) '\(pattern)' uses '\(offending)', a character class WebKit does not support", hint)
    }
}
