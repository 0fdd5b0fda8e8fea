import WebPolicyKit
import WebPolicyRuntime

/// `NSAllowsArbitraryLoadsInWebContent` exempts every web view from ATS.
struct ATSArbitraryWebContentRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "ats-arbitrary-web-content",
        name: "App Transport Security Off in Web Views",
        category: .appCode,
        defaultSeverity: .error,
        summary: "An Info.plist sets `NSAllowsArbitraryLoadsInWebContent`: every web view may load any host over plain http, which defeats `http-allowlist` for exactly the views the policy covers.",
        rationale: """
        The key exempts content loaded by web views from ATS entirely (Apple, \
        `NSAllowsArbitraryLoadsInWebContent`); the policy's allowlist then describes nothing the \
        platform enforces. Grant the allowlisted hosts with the ATS fragment instead. Source: \
        MobSF `app_transport_security.py` ("Insecure WebView load is allowed"); MASWE-0050; \
        audit-checks.md AT2.
        """,
        standards: .init(masvs: ["MASVS-NETWORK-1"], maswe: ["MASWE-0050"], mastg: ["MASTG-TEST-0065"], cwe: ["CWE-319"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.infoPlist("""
            <key>NSAppTransportSecurity</key>
            <dict>
                ↓<key>NSAllowsArbitraryLoadsInWebContent</key>
                <true/>
            </dict>
            """), policy: """
            http-allowlist:
              - host: legacy.example.com
                reason: the CMS preview has no TLS
            """),
            .passes(.infoPlist("""
            <key>NSAppTransportSecurity</key>
            <dict>
                <key>NSAllowsArbitraryLoadsInWebContent</key>
                <false/>
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
            guard let key = plist.transportSecurity?.allowsArbitraryLoadsInWebContent, key.value else { continue }
            let consequence = app.policy == nil ? "nothing says which hosts need it" : "the policy's http-allowlist no longer holds"
            context.report("NSAllowsArbitraryLoadsInWebContent lets every web view load any host over plain http; \(consequence)",
                           at: key.location, hint: "remove it and merge the ATS fragment 'webpolicy compile' writes (docs/runtime.md)")
        }
    }
}
