import WebPolicyRuntime

/// WebKit `-[WKWebViewConfiguration setURLSchemeHandler:forURLScheme:]` raises for schemes
/// `+[WKWebView handlesURLScheme:]` claims (`LegacySchemeRegistry::isBuiltinScheme`).
struct SchemeHandlerBuiltinRule: LintRule {
    /// WebKit's built-in schemes on iOS, http and https aside (`interception-web-scheme`
    /// covers those).
    static let builtin = WebKitSchemes.builtin

    static let description = RuleDescription(
        id: "scheme-handler-builtin",
        name: "Scheme Handler for a Built-in Scheme",
        category: .schemes,
        defaultSeverity: .error,
        summary: "Interception cannot register a handler for a scheme WebKit handles itself (`file`, `data`, `ws` …).",
        rationale: """
        `setURLSchemeHandler(_:forURLScheme:)` raises `NSInvalidArgumentException` ("'%@' is \
        a URL scheme that WKWebView handles natively") when `WKWebView.handlesURLScheme` is \
        true (`WKWebViewConfiguration.mm`): the app crashes when it builds the web view. That \
        set is WebKit's `LegacySchemeRegistry::isBuiltinScheme` — `about`, `applewebdata`, \
        `blob`, `data`, `file`, `javascript`, `webkit-fake-url`, `x-apple-ql-id`, \
        `x-apple-content-filter` (and `safari-extension` on macOS) — plus the WHATWG special \
        schemes `ftp`, `ws`, `wss`, `http`, `https`. Apple: "It is a programmer error to \
        register a handler for a scheme WebKit already handles". Use a custom scheme.
        """,
        failing: [
            Example("""
            interception:
              - scheme: ↓file
                serve: bundle/site
            """),
        ],
        passing: [
            Example("""
            interception:
              - scheme: com.example.app-offline
                serve: bundle/site
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for rule in policy.interception where Self.builtin.contains(rule.scheme.value.lowercased()) {
            context.report("WebKit handles \(rule.scheme.value.lowercased()): itself; registering a scheme handler for it raises NSInvalidArgumentException",
                           at: rule.scheme.location, hint: "serve these files under a custom scheme, such as 'com.example.app-offline'")
        }
    }
}
