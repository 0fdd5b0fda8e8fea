import WebPolicyRuntime

struct RedirectPortRule: LintRule {
    static let description = RuleDescription(
        id: "redirect-port",
        name: "Redirect Port",
        category: .contentRules,
        defaultSeverity: .error,
        summary: "A redirect transform's `port` must be empty (remove the port) or a number from 0 to 65535.",
        rationale: """
        `URLTransformAction::parse` reads the port with `parseInteger<uint16_t>` and refuses \
        anything else — WebKit's tests use `65536` and `not a number` — with \
        `JSONRedirectInvalidPort`. An empty string removes the port.

        \(redirectRationaleSuffix)
        """,
        failing: [
            Example("""
            target: { ios: "17.0" }
            content-rules:
              - action: redirect
                url-filter: old
                redirect:
                  transform:
                    port: ↓"65536"
            """),
        ],
        passing: [
            Example("""
            target: { ios: "17.0" }
            content-rules:
              - action: redirect
                url-filter: old
                redirect:
                  transform:
                    port: "8443"
              - action: redirect
                url-filter: older
                redirect:
                  transform:
                    port: ""
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for transform in policy.redirectTransforms {
            guard let port = transform.port, !port.value.isEmpty, WebKitURL.port(port.value) == nil else { continue }
            context.report("the redirect transform's port '\(port.value)' is not a number from 0 to 65535", at: port.location,
                           hint: "write a port number, or \"\" to remove the port", notes: [.webKitRefuses(.jsonRedirectInvalidPort)])
        }
    }
}
