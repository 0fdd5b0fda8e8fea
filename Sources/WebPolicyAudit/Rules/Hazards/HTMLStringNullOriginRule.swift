import WebPolicyKit
import WebPolicyRuntime

/// `loadHTMLString(_:baseURL:)` with non-literal HTML and a nil or plain-http base URL.
struct HTMLStringNullOriginRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "html-string-null-origin",
        name: "HTML From Values With No Real Origin",
        category: .appHazards,
        defaultSeverity: .warning,
        summary: "`loadHTMLString` or `load(_:mimeType:…baseURL:)` loads HTML built from values with a nil or plain-http base URL: its scripts run under an origin no policy names.",
        rationale: """
        With a nil base URL the page's origin is opaque ("null", MASTG-TEST-0077); with \
        `http://` it claims an origin no server backs. Scripts inside the HTML — from the \
        network, a template filled with a server's text — then run beside the view's bridges \
        and cookies, outside every origin rule. Literal HTML with a nil base (blanking a view) \
        is harmless and not reported. Give it a base URL of an intercepted scheme, or load it \
        through `interception:`. Source: MASTG-TEST-0077; CodeQL `swift/unsafe-webview-fetch` \
        (CWE-079); MobSF `ios_load_html_string`; audit-checks.md HZ5.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0071"], mastg: ["MASTG-TEST-0076"], cwe: ["CWE-79"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Article.swift", """
            func show(_ body: String, in webView: WKWebView) {
                ↓webView.loadHTMLString(template.replacingOccurrences(of: "{{body}}", with: body), baseURL: nil)
            }
            """)),
            .passes(.init("App/Article.swift", """
            func clear(_ webView: WKWebView, body: String) {
                webView.loadHTMLString("", baseURL: nil)
                webView.loadHTMLString(body, baseURL: URL(string: "app-local://articles/"))
            }
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        for fact in app.facts() {
            guard case .load(let load) = fact.kind, load.api == .loadHTMLString || load.api == .loadData else { continue }
            guard !load.content.isKnown else { continue }
            let base = load.base
            let null = base.kind == .nil || base.stringValue == "about:blank" || base.text.contains("\"about:blank\"")
            let plainHTTP = base.text.contains("\"http://") || base.stringValue?.hasPrefix("http://") == true
            guard null || plainHTTP else { continue }
            let origin = !null ? "a plain-http base URL (\(base.text))" : base.kind == .nil ? "a nil base URL (an opaque origin)" : "an about:blank base URL (an opaque origin)"
            context.report("\(load.written) loads HTML built from values with \(origin): its scripts run outside every origin the policy names",
                           at: fact.site, hint: "give it a base URL of a scheme the app intercepts, or serve it through interception:")
        }
    }
}
