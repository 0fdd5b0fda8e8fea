import WebPolicyRuntime

/// A bridge scheme no page can have: neither the web's nor one the app serves.
struct BridgeSchemeUnservedRule: LintRule {
    static let description = RuleDescription(
        id: "bridge-scheme-unserved",
        name: "Bridge Scheme No Page Has",
        category: .bridges,
        defaultSeverity: .warning,
        summary: "A bridge's `schemes` names a scheme that is neither http, https nor one the policy serves under `interception`: no page of it ever posts.",
        rationale: """
        A message comes from a frame showing a document, and the view shows documents of the \
        web's schemes or of the schemes the app serves itself (`WKURLSchemeHandler`, \
        `interception:`). A scheme that is neither — most often a typo of the app's own \
        scheme, `navidapro-ofline` for `navidapro-offline` — admits nothing, and the pages the \
        team meant cannot call the handler. OWASP MASTG-TEST-0078 asks which pages reach each \
        handler: the policy should answer it truly. Write the scheme the app serves, or serve it.
        """,
        failing: [
            Example("""
            interception:
              - scheme: navidapro-offline
                serve: Offline/shop
            bridges:
              - name: AppInterface
                origins: [cms.example.com]
                schemes: [https, ↓navidapro-ofline]
            """),
        ],
        passing: [
            Example("""
            interception:
              - scheme: navidapro-offline
                serve: Offline/shop
            bridges:
              - name: AppInterface
                origins: [cms.example.com]
                schemes: [https, navidapro-offline]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        let served = policy.interceptedSchemes
        for bridge in policy.bridges {
            for scheme in bridge.schemes?.value ?? [] {
                let name = scheme.value.lowercased()
                // Not a scheme at all is the loader's error; it takes no part here.
                guard PolicyDecoder.isSchemeName(scheme.value), !WebKitSchemes.web.contains(name), !served.contains(name) else { continue }
                let suggestion = Suggestions.closest(to: name, in: served.sorted() + ["https", "http"])
                var message = "bridge '\(bridge.name.value)' admits the scheme \(scheme.value), which no page has: it is neither http(s) nor one the policy serves"
                if let suggestion { message += "; did you mean '\(suggestion)'?" }
                let fix = suggestion.flatMap { suggestion in
                    context.fixes.replace(scheme, with: suggestion).map { Fix("write '\(suggestion)'", edits: [$0], changesMeaning: true) }
                }
                context.report(message, at: scheme.location,
                               hint: suggestion.map { "write '\($0)'" } ?? "serve it under interception, or remove it", fix: fix)
            }
        }
    }
}
