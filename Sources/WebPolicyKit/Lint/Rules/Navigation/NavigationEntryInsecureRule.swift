import WebPolicyRuntime

/// OWASP MASTG-TEST-0076: web content over plain http can be rewritten in transit.
struct NavigationEntryInsecureRule: LintRule {
    static let description = RuleDescription(
        id: "navigation-entry-insecure",
        name: "Page or Frame over Plain HTTP",
        category: .navigation,
        defaultSeverity: .warning,
        summary: "A `navigation` entry with `schemes: [http]` lets the view show a document anyone on the network can rewrite.",
        rationale: """
        A document loaded over plain http is whatever the network delivers: on a café's Wi-Fi, \
        another page, with its own scripts, its own links, its own calls to the app's message \
        handlers (OWASP MASTG-TEST-0076 asks for mixed content to be ruled out; WKWebView's \
        `hasOnlySecureContent` exists to check it). For a subresource the http allowlist is the \
        exception; a whole page or frame over http hands the view to the network. Serve the \
        documents over https, or say why with a suppression.
        """,
        standards: .init(masvs: ["MASVS-NETWORK-1", "MASVS-PLATFORM-2"], maswe: ["MASWE-0050"], cwe: ["CWE-319"]),
        failing: [
            Example("""
            http-allowlist:
              - host: legacy.example.com
                reason: The old catalogue has no TLS.
            navigation:
              pages:
                - host: legacy.example.com
                  schemes: [↓http]
            """),
        ],
        passing: [
            Example("""
            navigation:
              pages:
                - host: legacy.example.com
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let navigation = policy.navigation else { return }
        for (entry, section) in navigation.pages.map({ ($0, "page") }) + navigation.frames.map({ ($0, "frame") }) {
            guard let http = entry.schemes?.value.first(where: { $0.value.lowercased() == "http" }) else { continue }
            // A role bound over http on the local network only: runtime-hosts says what that network can do.
            guard !policy.isLocalNetworkOnly([entry.scope]) else { continue }
            context.report("\(entry.host.value) is admitted as a \(section) over plain http: anyone on the network can rewrite what the view shows",
                           at: http.location, hint: "serve it over https and drop 'http' from schemes")
        }
    }
}
