import WebPolicyKit
import WebPolicyRuntime

/// The reverse of `ats-exception-not-allowlisted`: a host the policy allows over http that no
/// Info.plist lets through ATS.
struct ATSAllowlistedHostMissingRule: AuditRule {
    static let description = RuleDescription(
        id: "ats-allowlisted-host-missing",
        name: "Allowlisted Host Without Its ATS Exception",
        category: .appCode,
        defaultSeverity: .warning,
        summary: "`http-allowlist` lists a host that no Info.plist exempts from ATS: its plain-http loads fail on the device, while `simulate` allows them.",
        rationale: """
        The allowlist only works with the ATS fragment `webpolicy compile` writes merged into \
        the app's Info.plist (docs/runtime.md shows the Xcode build phase that does it at build \
        time). Without an `NSExceptionAllowsInsecureHTTPLoads` for the host, ATS refuses the \
        load before the policy is asked. When the fragment is merged at build time, the \
        Info.plist in the repository lacks it by design: turn this rule off in \
        `.webpolicy.yml`. Source: Apple, `NSExceptionDomains`; audit-checks.md AT3.
        """,
        standards: .init(masvs: ["MASVS-NETWORK-1"], mastg: ["MASTG-TEST-0065"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.infoPlist("""
            <key>CFBundleName</key>
            <string>Shop</string>
            """), policy: """
            http-allowlist:
              - host: ↓legacy.example.com
                reason: the CMS preview has no TLS
            """),
            .passes(.infoPlist("""
            <key>NSAppTransportSecurity</key>
            <dict>
                <key>NSExceptionDomains</key>
                <dict>
                    <key>example.com</key>
                    <dict>
                        <key>NSIncludesSubdomains</key>
                        <true/>
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
        guard let policy = app.policy else { return }
        let plists = app.infoPlists
        guard !plists.isEmpty else { return }
        // Any plist that lets the host through (or ATS off altogether) will do: which plist
        // belongs to the web view's target is not known from the files alone.
        let arbitrary = plists.contains { plist in
            guard let security = plist.transportSecurity else { return false }
            if security.allowsArbitraryLoadsInWebContent?.value == true { return true }
            return security.allowsArbitraryLoads?.value == true && !security.arbitraryLoadsIgnored
        }
        if arbitrary { return }
        let exceptions = plists.flatMap { $0.transportSecurity?.exceptionDomains ?? [] }
        for entry in policy.httpAllowlist where !ATSHostMatching.exceptions(exceptions, cover: entry) {
            context.report("http-allowlist lists '\(entry.host.value)', but no Info.plist exempts it from App Transport Security: its http loads fail on the device",
                           at: entry.host.location, hint: "merge the ATS fragment 'webpolicy compile' writes into the Info.plist (docs/runtime.md)")
        }
    }
}
