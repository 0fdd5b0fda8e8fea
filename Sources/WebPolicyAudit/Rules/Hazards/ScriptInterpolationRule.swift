import WebPolicyKit
import WebPolicyRuntime

/// Script text built from values: a quote in the value ends the string and the rest runs.
struct ScriptInterpolationRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "script-interpolation",
        name: "Script Built by Interpolation",
        category: .appHazards,
        defaultSeverity: .warning,
        summary: "`evaluateJavaScript` or `callAsyncJavaScript` runs a script built by interpolating, concatenating or formatting values: a quote in a value runs as code in the page.",
        rationale: """
        `"showBanner('\\(title)')"` is code as soon as `title` holds a quote. Pass values as \
        `callAsyncJavaScript(_:arguments:in:in:)` arguments, which WebKit hands over as data, \
        or JSON-encode them without wrapping them in quotes again. Inside a script message \
        handler, with a value from the message's body, it is an error: the page chooses the \
        code the app runs back into it. A script held in a variable whose value the audit \
        cannot see is not reported. Source: MASTG-TEST-0078; CodeQL `swift/unsafe-js-eval` \
        (CWE-094); audit-checks.md HZ4, BR7.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2", "MASVS-CODE-4"], maswe: ["MASWE-0072"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-94"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Banner.swift", """
            func show(_ title: String, in webView: WKWebView) {
                let script = "showBanner('\\(title)')"
                ↓webView.evaluateJavaScript(script)
            }
            """)),
            .triggers(.init("App/Bridge.m", """
            @implementation Bridge
            - (void)open:(NSURL *)url in:(WKWebView *)webView {
                ↓[webView evaluateJavaScript:[NSString stringWithFormat:@"onDeepLink(\\"%@\\")", url.absoluteString] completionHandler:nil];
            }
            @end
            """)),
            .triggers(.init("App/Bus.swift", """
            func send(_ jsonText: String, in webView: WKWebView) {
                ↓webView.evaluateJavaScript("receive(JSON.parse('\\(jsonText)'))")
            }
            """)),
            .passes(.init("App/Banner.swift", """
            func show(_ title: String, in webView: WKWebView, jsonString: String, zoom: Int) async throws {
                webView.evaluateJavaScript("document.title")
                webView.evaluateJavaScript("window.externalBus(\\(jsonString))")
                webView.evaluateJavaScript("showBanner(\\(Self.jsStringLiteral(title)), \\(2))")
                _ = try await webView.callAsyncJavaScript("showBanner(title)", arguments: ["title": title], contentWorld: .page)
            }
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        for fact in app.facts() {
            guard case .script(let script) = fact.kind, script.script.kind == .interpolated else { continue }
            let inHandler = fact.site.enclosingFunction?.hasPrefix("userContentController") ?? false
            let fromMessage = inHandler && (script.script.text.contains("body") || script.script.text.contains("message"))
            if fromMessage {
                context.report("\(script.api) runs a script built from the script message's body: the page chooses code the app runs",
                               at: fact.site, hint: "reply with callAsyncJavaScript arguments or the reply handler, never by building script text", severity: .error)
            } else {
                context.report("\(script.api) runs a script built from values (\(script.script.quoted)): a quote in a value runs as code",
                               at: fact.site, hint: "pass the values as callAsyncJavaScript(_:arguments:in:in:) arguments")
            }
        }
    }
}
