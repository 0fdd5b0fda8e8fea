import WebPolicyKit
import WebPolicyRuntime

/// An `NSExceptionAllowsInsecureHTTPLoads` domain that the http allowlist does not list.
struct ATSExceptionNotAllowlistedRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "ats-exception-not-allowlisted",
        name: "Insecure ATS Exception Outside the Allowlist",
        category: .appCode,
        defaultSeverity: .warning,
        summary: "An Info.plist allows plain http to a domain (`NSExceptionAllowsInsecureHTTPLoads`) that `http-allowlist` does not list, or to its subdomains where the allowlist does not.",
        rationale: """
        Each insecure exception is a host the app may reach without TLS. The allowlist is where \
        the team records which and why (`reason:`); `simulate` and the runtime's scheme gate \
        read it. An exception outside it is a host the policy does not know is in cleartext; \
        with no policy, every insecure exception is one nothing records the reason for. \
        `localhost` and loopback addresses are left out, as MobSF leaves them. Source: MobSF \
        `app_transport_security.py`; Apple, `NSExceptionDomains`; audit-checks.md AT3.
        """,
        standards: .init(masvs: ["MASVS-NETWORK-1"], maswe: ["MASWE-0050"], mastg: ["MASTG-TEST-0065"], cwe: ["CWE-319"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.infoPlist("""
            <key>NSAppTransportSecurity</key>
            <dict>
                <key>NSExceptionDomains</key>
                <dict>
                    <key>legacy.example.com</key>
                    <dict>
                        <key>NSExceptionAllowsInsecureHTTPLoads</key>
                        <true/>
                    </dict>
                    ↓<key>tracker.example.net</key>
                    <dict>
                        <key>NSExceptionAllowsInsecureHTTPLoads</key>
                        <true/>
                    </dict>
                </dict>
            </dict>
            """), policy: """
            http-allowlist:
              - host: legacy.example.com
                reason: the CMS preview has no TLS
            """),
            .passes(.infoPlist("""
            <key>NSAppTransportSecurity</key>
            <dict>
                <key>NSExceptionDomains</key>
                <dict>
                    <key>legacy.example.com</key>
                    <dict>
                        <key>NSExceptionAllowsInsecureHTTPLoads</key>
                        <true/>
                    </dict>
                    <key>localhost</key>
                    <dict>
                        <key>NSExceptionAllowsInsecureHTTPLoads</key>
                        <true/>
                    </dict>
                </dict>
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
            for exception in plist.transportSecurity?.exceptionDomains ?? [] where exception.allowsInsecureHTTPLoads?.value == true {
                let domain = exception.domain.value
                if ["localhost", "127.0.0.1", "::1"].contains(domain.lowercased()) || InfoPlist.isPlaceholder(domain) { continue }
                let scope = exception.includesSubdomains ? "'\(domain)' and its subdomains" : "'\(domain)'"
                guard let policy = app.policy else {
                    context.report("the Info.plist allows plain http to \(scope); no policy records why",
                                   at: exception.domain.location, hint: "list it under a policy's http-allowlist with its reason, or remove the exception")
                    continue
                }
                if ATSHostMatching.allowlist(policy.httpAllowlist, covers: domain, withSubdomains: exception.includesSubdomains) { continue }
                context.report("the Info.plist allows plain http to \(scope), which http-allowlist does not list",
                               at: exception.domain.location, hint: "add it to http-allowlist with its reason, or remove the exception; 'webpolicy compile' writes the exceptions the policy needs")
            }
        }
    }
}
