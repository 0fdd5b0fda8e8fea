import WebPolicyKit
import WebPolicyRuntime

/// `-[WKWebViewConfiguration setURLSchemeHandler:forURLScheme:]` raises for a scheme WebKit
/// handles itself (`+[WKWebView handlesURLScheme:]`, WKWebViewConfiguration.mm).
struct SchemeHandlerWebKitSchemeRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "scheme-handler-webkit-scheme",
        name: "Scheme Handler for a Scheme WebKit Handles",
        category: .appHazards,
        defaultSeverity: .error,
        summary: "The app registers a URL-scheme handler for http, https, file, data or another scheme WebKit handles itself: the call raises and the app ends.",
        rationale: """
        "It is a programmer error to register a handler for a scheme WebKit already handles, \
        such as https, and this method raises an `invalidArgumentException` if you try" (Apple, \
        `setURLSchemeHandler(_:forURLScheme:)`). WebKit's list is `+[WKWebView \
        handlesURLScheme:]`: the web's schemes and `LegacySchemeRegistry`'s built-ins (about, \
        blob, data, file, ftp, javascript, ws, wss…). A registration guarded by \
        `WKWebView.handlesURLScheme(_:)` in the same function is fine. WebKit for SwiftUI's \
        `URLScheme(_:)` is nil for such a scheme (`URLSchemeHandler.swift`: \
        `_isValidCustomScheme`), so `urlSchemeHandlers[URLScheme("https")!]` traps instead. \
        Source: Apple; WebKit `WKWebViewConfiguration.mm`, `URLSchemeHandler.swift`; \
        audit-checks.md IC2.
        """,
        standards: .init(mastg: ["MASTG-TEST-0077"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Offline.swift", """
            func enableOffline(_ configuration: WKWebViewConfiguration) {
                ↓configuration.setURLSchemeHandler(OfflineCache(), forURLScheme: "https")
            }
            """)),
            .passes(.init("App/Offline.swift", """
            func enableOffline(_ configuration: WKWebViewConfiguration, scheme: String) {
                guard !WKWebView.handlesURLScheme(scheme) else { return }
                configuration.setURLSchemeHandler(OfflineCache(), forURLScheme: "app-offline")
                configuration.setURLSchemeHandler(OfflineCache(), forURLScheme: scheme)
            }
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        for (fact, handler) in app.schemeHandlers {
            guard let scheme = handler.scheme?.stringValue, !WebKitSchemes.acceptsHandler(for: scheme) else { continue }
            context.report("a URL-scheme handler is registered for '\(scheme)', a scheme WebKit handles itself: "
                               + (handler.viaURLScheme ? "URLScheme(\"\(scheme)\") is nil, and its force-unwrap traps" : "the call raises NSInvalidArgumentException"),
                           at: fact.site, hint: "serve the content under a scheme of the app's own (app-local:) and intercept that")
        }
    }
}
