/// Observed on WebKitGTK 2.50 by ci/webkit-conformance (WebCore/contentextensions, shared
/// with Safari and WKWebView): a trigger with `request-method` and an `if-*` condition never
/// matches.
struct RequestMethodIfConditionRule: LintRule {
    static let description = RuleDescription(
        id: "request-method-if-condition",
        name: "Request Method with an If Condition",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "A trigger with `request-method` and `if-domain`, `if-top-url` or `if-frame-url` never matches in WebKit.",
        rationale: """
        Replaying requests in a real WebKit (WebKitGTK 2.50, the content-extension engine \
        Safari and WKWebView share; ci/webkit-conformance) shows that a trigger carrying both \
        `request-method` and an `if-*` condition never matches — for GET or POST, whether the \
        condition holds or not — while the same trigger without the method, or with an \
        `unless-*` condition, works. The list compiles, so nothing else tells you the rule is \
        dead. Note too that WebKit matches `request-method` against the method of the page \
        that makes the request, not the request's own. Drop the method, or express the \
        condition as `unless-*`, or fold it into the url-filter.
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
        ],
        passing: [
            Example("""
            target: { ios: "26.0" }
            content-rules:
              - action: block
                url-filter: /api/track
                if-domain: [news.example.com]
              - action: block
                url-filter: /api/track
                request-method: get
                unless-domain: [news.example.com]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for rule in policy.contentRules {
            guard let methods = rule.trigger.requestMethods, !methods.value.isEmpty else { continue }
            for condition in rule.trigger.conditions where [.ifDomain, .ifTopURL, .ifFrameURL].contains(condition.kind) {
                let key = SourceLocation(path: condition.location.path, range: SourceRange(
                    start: condition.location.start,
                    end: SourcePosition(line: condition.location.start.line, column: condition.location.start.column + condition.kind.rawValue.count)))
                context.report("WebKit never matches a trigger with both 'request-method' and '\(condition.kind.rawValue)': this rule never applies",
                               at: key, hint: "drop 'request-method', or use an unless-* condition instead",
                               notes: [Diagnostic.Note("the request-method", at: methods.location)])
            }
        }
    }
}
