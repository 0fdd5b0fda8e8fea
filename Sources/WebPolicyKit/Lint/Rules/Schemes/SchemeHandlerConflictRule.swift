import WebPolicyRuntime

/// WebKit raises "URL scheme '%@' already has a registered URL scheme handler".
struct SchemeHandlerConflictRule: LintRule {
    static let description = RuleDescription(
        id: "scheme-handler-conflict",
        name: "Scheme Handled Twice",
        category: .schemes,
        defaultSeverity: .error,
        summary: "One custom scheme takes one handler: interception rules for it must share their `handler` or `serve`.",
        rationale: """
        A `WKWebViewConfiguration` takes one `WKURLSchemeHandler` per scheme; a second \
        `setURLSchemeHandler(_:forURLScheme:)` for the same scheme raises \
        `NSInvalidArgumentException` ("URL scheme '%@' already has a registered URL scheme \
        handler", WebKit's `WKWebViewConfiguration.mm`). Several interception rules may split one \
        custom scheme by host or path, but they must name the same handler (or the same served \
        folder, which one generated handler answers).
        """,
        failing: [
            Example("""
            interception:
              - scheme: com.example.app
                serve: bundle/site
              - scheme: ↓com.example.app
                handler: APIHandler
            """),
        ],
        passing: [
            Example("""
            interception:
              - scheme: com.example.app
                paths: [/api/]
                handler: AppSchemeHandler
              - scheme: com.example.app
                paths: [/img/]
                handler: AppSchemeHandler
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        var first: [String: (answer: String, rule: InterceptionRule)] = [:]
        for rule in policy.interception {
            let scheme = rule.scheme.value.lowercased()
            guard scheme != "http", scheme != "https" else { continue }
            let answer = rule.handler.map { "handler \($0.value)" } ?? rule.serve.map { "serve \($0.value)" } ?? ""
            guard let earlier = first[scheme] else {
                first[scheme] = (answer, rule)
                continue
            }
            guard earlier.answer != answer else { continue }
            context.report("\(scheme): already has a scheme handler (\(earlier.answer)); a second one (\(answer)) raises NSInvalidArgumentException",
                           at: rule.scheme.location, hint: "let one handler answer every rule of this scheme",
                           notes: [Diagnostic.Note("the first handler of \(scheme):", at: earlier.rule.scheme.location)])
        }
    }
}
