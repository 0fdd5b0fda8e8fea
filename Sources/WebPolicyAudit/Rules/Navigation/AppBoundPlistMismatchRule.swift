import WebPolicyKit
import WebPolicyRuntime

/// `WKAppBoundDomains` in Info.plist is what WebKit reads (WebsiteDataStoreCocoa.mm); the
/// policy's `app-bound-domains:` is what simulate and review read. They must be one list.
struct AppBoundPlistMismatchRule: AuditRule {
    static let description = RuleDescription(
        id: "app-bound-plist-mismatch",
        name: "WKAppBoundDomains Against app-bound-domains",
        category: .appCode,
        defaultSeverity: .error,
        summary: "The Info.plist's `WKAppBoundDomains` and the policy's `app-bound-domains.domains` differ: a domain in one and not the other, or the key in one only.",
        rationale: """
        WebKit reads up to ten domains from `WKAppBoundDomains` (webkit.org/blog/10882) and, \
        once the key exists, denies cookies, injected scripts and message handlers outside \
        them; `simulate` decides with the policy's list. A domain in one list only makes the \
        device and the simulation disagree. Entries written as build-setting placeholders \
        (`$(APP_DOMAIN)`) are not compared. Source: WebKit `WebsiteDataStoreCocoa.mm`; Apple, \
        App-Bound Domains; audit-checks.md AB1.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0071"], mastg: ["MASTG-TEST-0076"], cwe: ["CWE-829"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.infoPlist("""
            <key>WKAppBoundDomains</key>
            <array>
                <string>shop.example.com</string>
                ↓<string>tracker.example.net</string>
            </array>
            """), policy: """
            app-bound-domains:
              domains: [shop.example.com]
              limit-navigations: true
            """),
            .passes(.infoPlist("""
            <key>WKAppBoundDomains</key>
            <array>
                <string>shop.example.com</string>
            </array>
            """), policy: """
            app-bound-domains:
              domains: [shop.example.com]
              limit-navigations: true
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy else { return }
        let declared = policy.appBoundDomains?.domains?.value ?? []
        let declaredNames = Set(declared.map { $0.value.lowercased() })
        let plists = app.infoPlists.filter { $0.appBoundDomains != nil }
        if plists.isEmpty {
            if let section = policy.appBoundDomains, let domains = section.domains, !domains.value.isEmpty, !app.infoPlists.isEmpty {
                context.report("app-bound-domains: lists \(domains.value.count) domain\(domains.value.count == 1 ? "" : "s"), but no Info.plist has WKAppBoundDomains: WebKit binds nothing",
                               at: domains.location, hint: "add WKAppBoundDomains with the same domains to the app's Info.plist")
            }
            return
        }
        for plist in plists {
            guard let (location, entries) = plist.appBoundDomains else { continue }
            guard policy.appBoundDomains != nil else {
                context.report("the Info.plist has WKAppBoundDomains, but the policy has no app-bound-domains: section; simulate cannot decide what WebKit will",
                               at: location, hint: "add app-bound-domains: with the same domains")
                continue
            }
            var inPlist: Set<String> = []
            for entry in entries where !InfoPlist.isPlaceholder(entry.value) {
                let name = entry.value.lowercased()
                inPlist.insert(name)
                if !declaredNames.contains(name) {
                    context.report("WKAppBoundDomains lists '\(entry.value)', which app-bound-domains: does not", at: entry.location, hint: "add it to the policy's domains, or remove it here")
                }
            }
            if entries.contains(where: { InfoPlist.isPlaceholder($0.value) }) { continue }
            for domain in declared where !inPlist.contains(domain.value.lowercased()) {
                context.report("app-bound-domains: lists '\(domain.value)', which the Info.plist's WKAppBoundDomains does not", at: domain.location,
                               hint: "add it to WKAppBoundDomains in \(plist.path), or remove it from the policy", notes: [Diagnostic.Note("the Info.plist's list", at: location)])
            }
        }
    }
}
