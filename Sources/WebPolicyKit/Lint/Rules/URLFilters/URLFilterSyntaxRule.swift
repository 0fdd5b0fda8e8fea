import URLFilter
import WebPolicyRuntime

struct URLFilterSyntaxRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.yarrError

    static let description = RuleDescription(
        id: "url-filter-syntax",
        name: "URL Filter Syntax",
        category: .urlFilters,
        defaultSeverity: .error,
        summary: "A url-filter must be a syntactically valid JavaScript regular expression.",
        rationale: """
        WebKit parses url-filters with JavaScriptCore's regular-expression parser (Yarr) in \
        legacy mode; any syntax error there — an unclosed `(` or `[`, a quantifier with nothing \
        to repeat (`a**`, `+x`), a range out of order (`[z-a]`), a trailing `\\` — fails with \
        "Internal error in YARR." even when an unsupported construct came earlier. webpolicy \
        reports Yarr's own reason. Patterns longer than 1,048,576 characters fail the same way.

        \(urlFilterRationaleSuffix)
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: '↓(ads\\.example'
            """),
            Example("""
            content-rules:
              - action: block
                url-filter: 'ads*↓*'
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: block
                url-filter: '(ads\\.example)'
            """),
        ]
    )

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        let reason = problem?.syntaxError?.message ?? "syntax error"
        var hint: String?
        switch problem?.syntaxError {
        case .missingParentheses: hint = "close the group with ')' or escape the '(' as '\\('"
        case .characterClassUnmatched: hint = "close the set with ']' or escape the '[' as '\\['"
        case .quantifierWithoutAtom: hint = "escape a literal '\(offending)' as '\\\(offending)'"
        case .parenthesesUnmatched: hint = "escape a literal ')' as '\\)'"
        default: hint = nil
        }
        return ("the \(field) '\(pattern)' is not a valid regular expression: \(reason)", hint)
    }
}
