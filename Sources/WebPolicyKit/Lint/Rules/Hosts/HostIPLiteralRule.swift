import WebPolicyRuntime

/// ATS and IP addresses: `NSAllowsLocalNetworking` and `NSExceptionDomains` documentation.
struct HostIPLiteralRule: LintRule {
    static let description = RuleDescription(
        id: "host-ip-literal",
        name: "IP Address in the HTTP Allowlist",
        category: .hosts,
        defaultSeverity: .warning,
        summary: "ATS takes IP addresses in exceptions only from iOS 17, and they never match a host name.",
        rationale: """
        Apple's `NSExceptionDomains` documentation accepts IP addresses and CIDR ranges only \
        on iOS 17 and later; before, ATS allowed IP literals by default (iOS 10–16) and an \
        exception for one is ignored. From iOS 17 ATS blocks IP addresses unless listed \
        (`NSAllowsLocalNetworking`). Either way an exception for an address does not apply to \
        a host name that resolves to it, nor the reverse, and cookies for a name are not sent \
        to its address (RFC 6265 §5.1.3). Prefer a host name; if the address is a device on \
        the local network, say so in the reason.
        """,
        failing: [
            Example("""
            target:
              ios: "15.0"
            http-allowlist:
              - host: ↓192.168.4.1
                reason: The camera's setup page.
            """),
        ],
        passing: [
            Example("""
            target:
              ios: "17.0"
            http-allowlist:
              - host: camera.local
                reason: The camera's setup page.
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        let before17 = policy.targetVersion < OSVersion(17)
        for entry in policy.httpAllowlist where HostNames.isIPAddress(entry.host.value) {
            let message = before17
                ? "'\(entry.host.value)' is an IP address: ATS exceptions take addresses only from iOS 17, and the target is iOS \(policy.targetVersion)"
                : "'\(entry.host.value)' is an IP address: its ATS exception does not cover any host name that resolves to it"
            context.report(message, at: entry.host.location, hint: "use the device's host name (a .local name works without an exception)")
        }
    }
}
