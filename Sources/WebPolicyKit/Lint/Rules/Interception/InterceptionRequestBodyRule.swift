import WebPolicyRuntime

/// Request bodies reach a `WKURLSchemeHandler` as a stream (ios-domain research §2.3).
struct InterceptionRequestBodyRule: LintRule {
    static let methodsWithBodies: Set<RequestMethod> = [.post, .put, .patch]

    static let description = RuleDescription(
        id: "interception-request-body",
        name: "Intercepted Request Bodies",
        category: .interception,
        defaultSeverity: .warning,
        summary: "Intercepted POST, PUT and PATCH requests bring their bodies as a stream, or not at all.",
        rationale: """
        A `WKURLSchemeTask`'s request often has `httpBody == nil` with the body in \
        `httpBodyStream` (fetch and XHR; NativePHP mobile-air #147, cordova-ios #1074), and \
        early iOS 11 delivered no body at all (OpenRadar 33814386); through the private \
        http(s) interception the body is dropped outright. A handler that reads `httpBody` \
        sees empty requests. Make sure the handler reads `httpBodyStream`, and test a real \
        upload on the oldest iOS you support.
        """,
        failing: [
            Example("""
            interception:
              - scheme: com.example.app-api
                methods: [GET, ↓POST]
                handler: APIHandler
            """),
        ],
        passing: [
            Example("""
            interception:
              - scheme: com.example.app-api
                methods: [GET]
                handler: APIHandler
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for rule in policy.interception {
            for method in rule.methods?.value ?? [] where Self.methodsWithBodies.contains(method.value) {
                context.report("\(method.value.rawValue.uppercased()) requests reach the handler with their body in httpBodyStream (httpBody is nil), or without it",
                               at: method.location, hint: "read request.httpBodyStream in the handler, and test an upload on the oldest iOS")
            }
        }
    }
}
