import WebPolicyRuntime

/// OWASP MASTG-TEST-0078: a handler answers every frame that can reach it.
struct BridgeOriginAnyRule: LintRule {
    static let description = RuleDescription(
        id: "bridge-origin-any",
        name: "Bridge Open to Every Origin",
        category: .bridges,
        defaultSeverity: .error,
        summary: "A bridge whose origins include `*` lets any page the view shows call the app's native code.",
        rationale: """
        A script message handler is defined "in all frames in all web views that use the user \
        content controller" (OWASP MASTG-TEST-0078, "Determining Whether Native Methods Are \
        Exposed Through WebViews"): every page the view ever shows — one reached by a redirect, \
        an ad, a page someone on the café's Wi-Fi rewrote — can post to it. `origins: ["*"]` \
        admits them all, so the message gate checks nothing. Name the sites whose pages call the \
        handler; DuckDuckGo's `UserScriptMessaging` gives each feature an origin policy of exact \
        hosts for the same reason. A bridge whose `schemes` are only the app's own (schemes \
        `interception` serves: an offline reader's `zim`) is another matter: no web page has \
        such an origin, so `*` there means every page the app serves itself — whose hosts (a \
        ZIM file's id, say) are not known when the policy is written.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0068"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-749"]),
        failing: [
            Example("""
            bridges:
              - name: nativeBridge
                origins: [↓"*"]
            """),
        ],
        passing: [
            Example("""
            bridges:
              - name: nativeBridge
                origins: ["*.shop.example.com"]
            """),
            Example("""
            interception:
              - scheme: com.example.reader
                handler: ReaderSchemeHandler
            bridges:
              - name: headings
                origins: ["*"]
                schemes: [com.example.reader]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        let served = policy.interceptedSchemes.subtracting(WebKitSchemes.web)
        // Only the app's own pages have an origin on a scheme it serves: `*` there is every one of them.
        for bridge in policy.bridges where !bridge.schemeNames.allSatisfy(served.contains) {
            for origin in bridge.origins?.value ?? [] where origin.value == "*" {
                context.report("bridge '\(bridge.name.value)' admits every origin: any page the view shows can call the app's native code through it",
                               at: origin.location, hint: "list the hosts whose pages call '\(bridge.name.value)', such as \"*.yourshop.com\"")
            }
        }
    }
}
