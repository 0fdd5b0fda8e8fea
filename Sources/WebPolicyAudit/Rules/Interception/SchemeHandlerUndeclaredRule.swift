import WebPolicyKit
import WebPolicyRuntime

/// Apple's `setURLSchemeHandler(_:forURLScheme:)`: the handler answers every load of the
/// scheme in the view, whatever the policy says it serves.
struct SchemeHandlerUndeclaredRule: AuditRule {
    static let description = RuleDescription(
        id: "scheme-handler-undeclared",
        name: "Scheme Handler the Policy Does Not Intercept",
        category: .appCode,
        defaultSeverity: .error,
        summary: "The app registers a URL-scheme handler for a scheme `interception:` does not list: its answers are outside the policy, `simulate` and review.",
        rationale: """
        A `WKURLSchemeHandler` serves every request of its scheme in the view — pages, \
        subresources, fetches. `interception:` is where the policy says which of them the app \
        answers and what it serves; the runtime's `SchemeHandlerPlan.register(in:)` registers \
        exactly those. A handler registered by hand for another scheme is an unreviewed server \
        inside the app. A scheme the source does not spell out is reported as info. Source: \
        Apple, `setURLSchemeHandler(_:forURLScheme:)`; MASTG-TEST-0077; audit-checks.md IC1.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0071"], mastg: ["MASTG-TEST-0077"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/WebConfiguration.swift", """
            enum Schemes {
                static let assets = "app-assets"
            }

            func configure(_ configuration: WKWebViewConfiguration) {
                ↓configuration.setURLSchemeHandler(AssetHandler(), forURLScheme: Schemes.assets)
            }
            """), policy: """
            interception:
              - scheme: app-local
                serve: bundle:www
            """),
            // WebKit for SwiftUI: a page configuration's scheme handlers.
            .triggers(.init("App/PageConfiguration.swift", """
            import WebKit

            func configure(_ configuration: inout WebPage.Configuration) {
                ↓configuration.urlSchemeHandlers[URLScheme("app-assets")!] = AssetHandler()
            }
            """), policy: """
            interception:
              - scheme: app-local
                serve: bundle:www
            """),
            .passes(.init("App/WebConfiguration.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                configuration.setURLSchemeHandler(AssetHandler(), forURLScheme: "app-local")
            }
            """), policy: """
            interception:
              - scheme: app-local
                serve: bundle:www
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy else { return }
        let intercepted = policy.interceptedSchemes
        for (fact, handler) in app.schemeHandlers {
            guard let written = handler.scheme else { continue }
            guard let scheme = written.stringValue else {
                context.report("a URL-scheme handler is registered for a scheme the source does not spell out (\(written.quoted)): the audit cannot check it against interception:",
                               at: fact.site, hint: "list the scheme under interception: and suppress this naming it", severity: .info)
                continue
            }
            guard WebKitSchemes.acceptsHandler(for: scheme), !intercepted.contains(scheme.lowercased()) else { continue }
            context.report("a URL-scheme handler is registered for '\(scheme)', but interception: does not list that scheme",
                           at: fact.site, hint: "add an interception entry for '\(scheme)' saying what it serves, or register handlers with SchemeHandlerPlan(policy.manifest).register(in:)")
        }
    }
}
