import WebPolicyKit
import WebPolicyRuntime

/// `NSAllowsArbitraryLoads` turns ATS off for every host — unless a finer key is present,
/// which since iOS 10 makes the system ignore it (Apple's key reference; ios-domain.md §1.2).
struct ATSArbitraryLoadsRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "ats-arbitrary-loads",
        name: "App Transport Security Off for Every Host",
        category: .appCode,
        defaultSeverity: .error,
        summary: "An Info.plist sets `NSAllowsArbitraryLoads` (and no finer key that makes iOS ignore it): plain http to any host, though `http-allowlist` lists the few that need it — or, with no policy, though nothing says which do.",
        rationale: """
        The http allowlist is the policy's word on which hosts may be loaded without TLS; the \
        ATS fragment `webpolicy compile` writes grants exactly those. `NSAllowsArbitraryLoads` \
        grants every host, for the web view and every URLSession in the app, so the allowlist \
        no longer holds. Since iOS 10 the key is ignored when `NSAllowsArbitraryLoadsInWebContent`, \
        `NSAllowsArbitraryLoadsForMedia` or `NSAllowsLocalNetworking` is present — then nothing \
        is reported here (MobSF reports it anyway). With no policy it is reported too: it is the \
        hazard a reviewer lists first. A browser app holding the \
        `com.apple.developer.web-browser` entitlement may need it: suppress with that reason. \
        Source: MASTG-TEST-0065; MASWE-0050; Apple, `NSAllowsArbitraryLoads`; audit-checks.md AT1.
        """,
        standards: .init(masvs: ["MASVS-NETWORK-1"], maswe: ["MASWE-0050"], mastg: ["MASTG-TEST-0065"], cwe: ["CWE-319"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.infoPlist("""
            <key>NSAppTransportSecurity</key>
            <dict>
                ↓<key>NSAllowsArbitraryLoads</key>
                <true/>
            </dict>
            """), policy: """
            http-allowlist:
              - host: legacy.example.com
                reason: the CMS preview has no TLS
            """),
            .triggers(.infoPlist("""
            <key>NSAppTransportSecurity</key>
            <dict>
                ↓<key>NSAllowsArbitraryLoads</key>
                <true/>
            </dict>
            """)),
            .passes(.infoPlist("""
            <key>NSAppTransportSecurity</key>
            <dict>
                <key>NSAllowsArbitraryLoads</key>
                <true/>
                <key>NSAllowsLocalNetworking</key>
                <true/>
            </dict>
            """), policy: """
            http-allowlist:
              - host: legacy.example.com
                reason: the CMS preview has no TLS
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        for plist in app.infoPlists {
            guard let security = plist.transportSecurity, let arbitrary = security.allowsArbitraryLoads, arbitrary.value, !security.arbitraryLoadsIgnored else { continue }
            // A server the user chooses on the home network is what NSAllowsLocalNetworking is for.
            let localRoles = (app.policy?.runtimeHosts ?? []).filter { $0.schemeNames.contains("http") && $0.httpValue == .localNetwork }.map(\.reference)
            let (consequence, hint) = !localRoles.isEmpty
                ? (", but the policy reaches plain http only through its http-allowlist and \(localRoles.joined(separator: ", ")) on the local network",
                   "replace it with NSAllowsLocalNetworking: merge the ATS fragment 'webpolicy compile' writes, which asks for it because \(localRoles.joined(separator: ", ")) may be bound to plain http on the local network (docs/runtime.md)")
                : app.policy != nil
                ? (", but the policy's http-allowlist names the hosts that may use plain http", "remove it and merge the ATS fragment 'webpolicy compile' writes (docs/runtime.md)")
                : (": the web views and every URLSession of the app may use plain http",
                   "remove it; list the hosts that need plain http under a policy's http-allowlist and merge the ATS fragment 'webpolicy compile' writes")
            context.report("NSAllowsArbitraryLoads turns App Transport Security off for every host" + consequence, at: arbitrary.location, hint: hint)
        }
    }
}
