import WebPolicyKit
import WebPolicyRuntime

/// The policy intercepts a custom scheme nothing in the app registers a handler for.
struct InterceptionUnhandledRule: AuditRule {
    static let description = RuleDescription(
        id: "interception-unhandled",
        name: "Intercepted Scheme Without a Handler",
        category: .appCode,
        defaultSeverity: .warning,
        summary: "`interception:` lists a custom scheme, but the app neither registers a handler for it nor uses the runtime's `SchemeHandlerPlan`: its loads fail.",
        rationale: """
        A custom scheme with no `WKURLSchemeHandler` is one WebKit does not know: every load of \
        it fails ("unsupported URL"), while `simulate` says the app serves it. The runtime's \
        `SchemeHandlerPlan(policy.manifest).register(in:)` registers every intercepted scheme; \
        hand-written registrations must cover each. Source: Apple, \
        `setURLSchemeHandler(_:forURLScheme:)`; audit-checks.md IC3.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0077"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/WebConfiguration.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                configuration.setURLSchemeHandler(AssetHandler(), forURLScheme: "app-local")
            }
            """), policy: """
            interception:
              - scheme: app-local
                serve: bundle:www
              - scheme: ↓app-media
                serve: bundle:media
            """),
            .passes(.init("App/WebConfiguration.swift", """
            func configure(_ configuration: WKWebViewConfiguration, policy: RuntimePolicy) {
                SchemeHandlerPlan(policy.manifest).register(in: configuration)
            }
            """), policy: """
            interception:
              - scheme: app-local
                serve: bundle:www
              - scheme: app-media
                serve: bundle:media
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy else { return }
        let handlers = app.schemeHandlers
        // The runtime's plan registers them all; a dynamic scheme may be any of them.
        if handlers.contains(where: { $0.handler.scheme == nil }) { return }
        let registered = Set(handlers.compactMap { $0.handler.scheme?.stringValue?.lowercased() })
        let dynamic = handlers.contains { $0.handler.scheme?.stringValue == nil }
        var seen: Set<String> = []
        for rule in policy.interception {
            let scheme = rule.scheme.value.lowercased()
            guard WebKitSchemes.acceptsHandler(for: scheme), !registered.contains(scheme), seen.insert(scheme).inserted else { continue }
            context.report("interception: serves '\(scheme)', but the app registers no handler for it: its loads fail",
                           at: rule.scheme.location, hint: "register the policy's handlers with SchemeHandlerPlan(policy.manifest).register(in:)",
                           severity: dynamic ? .info : nil)
        }
    }
}
