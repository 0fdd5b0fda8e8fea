import WebPolicyRuntime

/// OWASP MASTG-TEST-0076 (mixed content): a page over plain http is whatever the network says.
struct BridgeOriginInsecureRule: LintRule {
    static let description = RuleDescription(
        id: "bridge-origin-insecure",
        name: "Bridge Open to Plain HTTP",
        category: .bridges,
        defaultSeverity: .error,
        summary: "A bridge that admits http origins lets anyone on the network call the app's native code.",
        rationale: """
        A page loaded over plain http is whatever the network hands the view: on a café's \
        Wi-Fi, an attacker rewrites it and its scripts post to the handler as if they were the \
        site's (OWASP MASTG-TEST-0076 on mixed content, MASTG-TEST-0078 on exposed native \
        methods). The message gate sees the origin `http://host`, and the bridge admits it. \
        Serve those pages over https and drop `http` from the bridge's schemes; when there is \
        no other way, keep the bridge's methods free of anything a stranger should not call. \
        An origin over http also needs the host on the http-allowlist, or ATS never loads the \
        page at all.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0068"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-749", "CWE-319"]),
        failing: [
            Example("""
            http-allowlist:
              - host: legacy.shop.example.com
                reason: The old catalogue has no TLS.
            bridges:
              - name: nativeBridge
                origins: ["legacy.shop.example.com"]
                schemes: [https, ↓http]
            """),
        ],
        passing: [
            Example("""
            bridges:
              - name: nativeBridge
                origins: ["legacy.shop.example.com"]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        let allowlist = policy.httpAllowlist.map { $0.scope }
        for bridge in policy.bridges {
            guard let http = bridge.schemes?.value.first(where: { $0.value.lowercased() == "http" }) else { continue }
            // Roles bound over http on the local network only: role-local-network-bridge says what that network can do.
            guard !policy.isLocalNetworkOnly(bridge.originScopes.map(\.scope)) else { continue }
            let unlisted = bridge.originScopes.compactMap(\.scope).filter { scope in scope.role == nil && !allowlist.contains { $0.matches(scope.sampleHost) } }
            let also = unlisted.isEmpty ? "" : "; and the http-allowlist does not name \(unlisted.map(\.sampleHost).joined(separator: ", ")), so ATS never loads those pages"
            context.report("bridge '\(bridge.name.value)' admits pages over plain http: anyone on the network can rewrite them and call the app's native code\(also)",
                           at: http.location, hint: "serve those pages over https and drop 'http'")
        }
    }
}
