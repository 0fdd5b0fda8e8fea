import URLFilter
import WebPolicyKit
import WebPolicyRuntime

/// The hover over a url regex: what WebKit's parser makes of it.
enum URLFilterHover {
    /// What WebKit makes of the url regex at `position` (a `url-filter`, an `if-top-url`'s
    /// entry…): compiled, anchored or not, or refused — and then the whole list with it — with
    /// WebKit's reason, counted in the regex as the policy decodes it (a YAML escape is one
    /// character). Read from the policy the last lint loaded.
    static func text(at position: SourcePosition, in file: SourceFile, policy: Policy?) -> String? {
        guard let policy else { return nil }
        for rule in policy.contentRules where rule.location.path == file.path && rule.location.start.line <= position.line && position.line <= rule.location.range.end.line {
            for field in rule.trigger.regexFields where field.text.location.path == file.path && Navigation.contains(field.text.location.range, position) {
                return text(of: field.text.value, field: field.field, caseSensitive: field.caseSensitive)
            }
        }
        return nil
    }

    static func text(of value: String, field: String, caseSensitive: Bool) -> String {
        switch URLFilterParser.parse(value, caseSensitive: caseSensitive) {
        case .filter(let filter):
            let where_ = filter.hasBeginningOfLineAssertion ? "from the start of the URL (`^`)" : "anywhere in the URL"
            let casing = caseSensitive ? "minding case" : "ignoring case"
            return "**\(field)** `\(value)`: WebKit compiles it into its automaton, matching \(where_), \(casing); \(filter.terms.count) term\(filter.terms.count == 1 ? "" : "s") after WebKit's simplification. "
                + "Its constructs are \(FeatureHover.always): the url-filter grammar has not grown since, so the first iOS a rule needs comes from its other keys."
        case .matchesEverything:
            return "**\(field)** `\(value)`: matches every URL; WebKit accepts it and applies the rule's action to every load it checks (a universal action)."
        case .rejected(let problem):
            // As lint says it: the regex's own syntax error first, then WebKit's words for it.
            let first = problem.span.offset + 1, last = problem.span.offset + max(problem.span.length, 1)
            let place = first == last ? "character \(first)" : "characters \(first)–\(last)"
            let reason = problem.syntaxError.map { "\($0.message) (WebKit's parser says \"\(problem.status.webKitMessage)\")" } ?? problem.status.webKitMessage
            return "**\(field)** `\(value)`: WebKit refuses it — and with it the whole rule list — at \(place) of the regex, counted from 1: \(reason)"
        }
    }
}
