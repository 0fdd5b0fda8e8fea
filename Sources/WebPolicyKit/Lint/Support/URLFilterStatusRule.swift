import URLFilter
import WebPolicyRuntime

/// A rule that reports one status of WebKit's url-filter parser, for every regex of a content
/// rule: `url-filter` and the entries of `if-top-url`, `unless-top-url`, `if-frame-url` and
/// `unless-frame-url` (WebKit runs the same parser over all of them).
protocol URLFilterStatusRule: LintRule {
    static var status: URLFilterParseStatus { get }
    /// The message and hint for one occurrence; `offending` is the pattern text at the span.
    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?)
    /// Whether an occurrence is worth a finding; by default every one is.
    static func reports(_ field: PolicyFacts.RegexField) -> Bool
}

extension URLFilterStatusRule {
    static func reports(_ field: PolicyFacts.RegexField) -> Bool { true }

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for field in context.facts.regexFieldsByStatus[Self.status] ?? [] {
            // WebKit refuses an empty condition entry before its regex is parsed
            // (`JSONInvalidConditionList`): that is condition-list-empty's to report.
            if Self.status == .emptyPattern && field.field != "url-filter" { continue }
            guard Self.reports(field) else { continue }
            var problem: URLFilterProblem?
            var location = field.text.location
            var offending = field.text.value
            if case .rejected(let rejected) = field.result {
                problem = rejected
                location = context.location(in: field.text, offset: rejected.span.offset, length: rejected.span.length)
                let scalars = Array(field.text.value.unicodeScalars)
                let start = min(rejected.span.offset, scalars.count)
                let end = min(rejected.span.offset + rejected.span.length, scalars.count)
                offending = String(String.UnicodeScalarView(scalars[start..<end]))
            }
            let (message, hint) = Self.explain(field: field.field, pattern: field.text.value, offending: offending, problem: problem)
            var notes: [Diagnostic.Note] = []
            if Self.status.isRejectedByWebKit {
                notes.append(Diagnostic.Note("WebKit rejects the whole rule list (\"Invalid or unsupported regular expression.\"); its url-filter parser says: \"\(Self.status.webKitMessage)\""))
            }
            context.report(message, at: location, hint: hint, notes: notes)
        }
    }
}

/// The rationale every url-filter rule shares, after its own first paragraph.
let urlFilterRationaleSuffix = """
WebKit compiles url-filters into a DFA with its own parser (`URLFilterParser.cpp` on top of \
JavaScriptCore's Yarr), which accepts only a subset of JavaScript regular expressions. A filter \
outside the subset makes `WKContentRuleListStore` refuse the *whole* list with \
`WKErrorContentRuleListStoreCompileFailed` — on the device, at run time. The same parser checks \
`if-top-url`, `unless-top-url`, `if-frame-url` and `unless-frame-url` entries, so this rule \
checks them too.
"""
