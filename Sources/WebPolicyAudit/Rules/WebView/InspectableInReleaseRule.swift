import WebPolicyKit
import WebPolicyRuntime

/// `isInspectable` (iOS 16.4, "Defaults to false") against `webview.inspectable`.
struct InspectableInReleaseRule: AuditRule {
    static let description = RuleDescription(
        id: "inspectable-in-release",
        name: "Inspectable Web View in a Release Build",
        category: .appCode,
        defaultSeverity: .error,
        summary: "A release build sets `isInspectable = true` (or the pre-16.4 `developerExtrasEnabled` key) while the policy says the view is not inspectable.",
        rationale: """
        An inspectable view lets anyone with the device and a Mac read and change the page, its \
        storage and its bridges in Safari's Web Inspector. `webview.inspectable` (default false) \
        is the team's decision, applied by the runtime's `configureInspection`. An assignment \
        under `#if DEBUG` is fine (audit the debug build with `--configuration debug`); a value \
        the source does not spell out — a user default, a remote flag — is a warning, since the \
        audit cannot see what ships. Source: Apple, `isInspectable`; MASWE-0074; MASTG \
        KNOW-0076; audit-checks.md WV1.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0074"], mastg: ["MASTG-TEST-0076"], cwe: ["CWE-489"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/AppWebView.swift", """
            class AppWebView: WKWebView {
                override init(frame: CGRect, configuration: WKWebViewConfiguration) {
                    super.init(frame: frame, configuration: configuration)
                    #if compiler(>=5.8)
                    ↓isInspectable = true
                    #endif
                }
            }
            """), policy: """
            webview:
              inspectable: false
            """),
            .triggers(.init("App/Debugging.m", """
            @implementation Debugging
            - (void)setUp:(WKWebView *)webView {
                ↓webView.inspectable = YES;
            }
            @end
            """), policy: """
            webview:
              javascript: true
            """),
            .passes(.init("App/AppWebView.swift", """
            func configure(_ webView: WKWebView) {
                #if DEBUG
                webView.isInspectable = true
                #else
                webView.isInspectable = false
                #endif
            }
            """), policy: """
            webview:
              inspectable: false
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy, policy.webView?.inspectable?.value != true else { return }
        let noted = policy.webView?.inspectable.map { [Diagnostic.Note("the policy says inspectable: false here", at: $0.location)] } ?? [Diagnostic.Note("the policy leaves webview.inspectable at its default, false")]
        for (fact, setting) in app.settings(.inspectable) {
            switch setting.value.boolValue {
            case false?: continue
            case true?:
                context.report("\(setting.target) is set to true in a release build, but the policy says the web view is not inspectable",
                               at: fact.site, hint: "set it under #if DEBUG only, or through policy.configureInspection(webView)", notes: noted)
            case nil:
                context.report("\(setting.target) is set from \(setting.value.quoted), which the audit cannot read; the policy says the web view is not inspectable",
                               at: fact.site, hint: "make sure it is false in release builds (set it under #if DEBUG), or suppress this with why", notes: noted, severity: .warning)
            }
        }
        for (fact, use) in app.uses(.keyValueCoding) where use.detail?.stringValue == WebKitVocabulary.developerExtrasKey {
            context.report("the private key 'developerExtrasEnabled' makes the view inspectable in a release build, but the policy says it is not",
                           at: fact.site, hint: "remove it; on iOS 16.4 and later use isInspectable under #if DEBUG", notes: noted)
        }
    }
}
