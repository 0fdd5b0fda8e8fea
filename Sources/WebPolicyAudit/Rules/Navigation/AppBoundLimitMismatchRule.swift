import WebPolicyKit
import WebPolicyRuntime

/// `limitsNavigationsToAppBoundDomains` (default false) against `limit-navigations`.
struct AppBoundLimitMismatchRule: AuditRule {
    static let description = RuleDescription(
        id: "app-bound-limit-mismatch",
        name: "limitsNavigationsToAppBoundDomains Against limit-navigations",
        category: .appCode,
        defaultSeverity: .error,
        summary: "The app sets `limitsNavigationsToAppBoundDomains` to the opposite of `app-bound-domains.limit-navigations`.",
        rationale: """
        With the flag on, WebKit refuses main-frame navigations outside the app-bound domains \
        (`WKError.Code.navigationAppBoundDomain`); with it off and `WKAppBoundDomains` present, \
        it denies cookies, injected scripts and message handlers instead. The runtime's \
        `configureNavigation` sets it from the policy; code that sets it the other way makes \
        the device differ from `simulate`. A value the source does not spell out is a warning. \
        Source: Apple, `limitsNavigationsToAppBoundDomains`; webkit.org/blog/10882; \
        audit-checks.md AB2.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0071"], mastg: ["MASTG-TEST-0076"], cwe: ["CWE-829"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Configuration.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                ↓configuration.limitsNavigationsToAppBoundDomains = false
            }
            """), policy: """
            app-bound-domains:
              domains: [shop.example.com]
              limit-navigations: true
            """),
            .passes(.init("App/Configuration.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                configuration.limitsNavigationsToAppBoundDomains = true
            }
            """), policy: """
            app-bound-domains:
              domains: [shop.example.com]
              limit-navigations: true
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy else { return }
        let wanted = policy.appBoundDomains?.limitNavigations?.value ?? false
        let notes = policy.appBoundDomains?.limitNavigations.map { [Diagnostic.Note("the policy says limit-navigations: \(wanted) here", at: $0.location)] }
            ?? [Diagnostic.Note("the policy leaves limit-navigations at its default, false")]
        for (fact, setting) in app.settings(.limitsNavigationsToAppBoundDomains) where !setting.onCopy {
            guard let value = setting.value.boolValue else {
                context.report("\(setting.target) is set from \(setting.value.quoted), which the audit cannot read; the policy says limit-navigations: \(wanted)",
                               at: fact.site, hint: "set it with policy.configureNavigation(configuration)", notes: notes, severity: .warning)
                continue
            }
            guard value != wanted else { continue }
            context.report("\(setting.target) is set to \(value), but the policy says limit-navigations: \(wanted)",
                           at: fact.site, hint: "set it with policy.configureNavigation(configuration), or change the policy", notes: notes)
        }
    }
}
