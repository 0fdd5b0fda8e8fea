import WebPolicyRuntime

/// Observed on WebKitGTK 2.50 by ci/webkit-conformance (WebCore/contentextensions, shared
/// with Safari and WKWebView): with `request-method`, a trigger's condition is never found in
/// WebKit's condition matcher, so `if-*` never holds and `unless-*` always does.
struct RequestMethodConditionRule: LintRule {
    static let description = RuleDescription(
        id: "request-method-condition",
        name: "Request Method with a Condition",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "WebKit ignores the URL in a condition next to `request-method`: `if-*` never holds, `unless-*` always does.",
        rationale: """
        Replaying requests in a real WebKit (WebKitGTK 2.50, the content-extension engine \
        Safari and WKWebView share; ci/webkit-conformance) shows that when a trigger has \
        `request-method`, its condition never sees a match: with `if-domain`, `if-top-url` or \
        `if-frame-url` the rule never applies, and with `unless-*` it applies everywhere, \
        even on the pages it was meant to leave alone. The same trigger without the method \
        works. The list compiles, so nothing else tells you. Note too that WebKit matches \
        `request-method` against the method of the page that makes the request, not the \
        request's own. Drop the method, or move the condition into the url-filter.
        """,
        failing: [
            Example("""
            target: { ios: "26.0" }
            content-rules:
              - action: block
                url-filter: /api/track
                request-method: post
                ↓if-domain: [news.example.com]
            """),
            Example("""
            target: { ios: "26.0" }
            content-rules:
              - action: block
                url-filter: /api/track
                request-method: get
                ↓unless-top-url: ['^https://partner\\.example/']
            """),
        ],
        passing: [
            Example("""
            target: { ios: "26.0" }
            content-rules:
              - action: block
                url-filter: /api/track
                if-domain: [news.example.com]
              - action: block
                url-filter: ^https://news\\.example\\.com/api/track
                request-method: get
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for rule in policy.contentRules {
            guard let methods = rule.trigger.requestMethods, !methods.value.isEmpty else { continue }
            for condition in rule.trigger.conditions {
                let key = SourceLocation(path: condition.location.path, range: SourceRange(
                    start: condition.location.start,
                    end: SourcePosition(line: condition.location.start.line, column: condition.location.start.column + condition.kind.rawValue.count)))
                let effect = condition.kind.isIf ? "this rule never applies" : "this rule applies on every page, as if the condition were not there"
                context.report("WebKit ignores the URL in '\(condition.kind.rawValue)' when the trigger has 'request-method': \(effect)",
                               at: key, hint: "drop 'request-method', or move the condition into the url-filter",
                               notes: [Diagnostic.Note("the request-method", at: methods.location)])
            }
        }
    }
}
