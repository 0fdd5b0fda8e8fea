import WebPolicyKit
import WebPolicyRuntime

/// UIWebView: deprecated since iOS 12, refused by App Review since 2020 (ITMS-90809).
struct UIWebViewRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "uiwebview",
        name: "UIWebView",
        category: .appHazards,
        defaultSeverity: .error,
        summary: "The code uses `UIWebView`: App Store submissions that contain it are refused, and no policy section applies to it.",
        rationale: """
        `UIWebView` is "deprecated starting on iOS 12 and should not be used" (MASTG KNOW-0076); \
        App Store Connect has refused new apps using it since April 2020 and updates since \
        December 2020 (ITMS-90809). It has no content rules, no scheme handlers, no per-frame \
        message origins. Reported once per file, at its first use; mentions in comments and \
        strings are not uses. Source: MASTG KNOW-0076; MobSF `ios_uiwebview_safari_view`; \
        audit-checks.md HZ1.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0076"], cwe: ["CWE-477"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("Legacy/HelpController.m", """
            @interface HelpController : UIViewController
            @property (nonatomic, strong) ↓UIWebView *webView;
            @end
            """)),
            .passes(.init("App/Help.swift", """
            // Replaced UIWebView with WKWebView in 2020.
            let migrationNote = "UIWebView"
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        var files: Set<String> = []
        for (fact, _) in app.uses(.uiWebView) where files.insert(fact.site.location.path).inserted {
            context.report("UIWebView is used here: App Review refuses apps that contain it, and no policy applies to it",
                           at: fact.site, hint: "move to WKWebView, built with WKWebView(frame:policy:)")
        }
    }
}
