import WebPolicyKit
import WebPolicyRuntime

/// `registerSchemeForCustomProtocol` and `WKBrowsingContextController`: the private way to
/// route WKWebView's http(s) through NSURLProtocol, found in code or spelled in a string.
struct PrivateWebKitAPIRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "private-webkit-api",
        name: "Private WebKit API",
        category: .appHazards,
        defaultSeverity: .error,
        summary: "The code names private WebKit API (`registerSchemeForCustomProtocol`, `WKBrowsingContextController`): App Review refuses it, and WebKit may drop it in any release.",
        rationale: """
        The private custom-protocol registration makes WKWebView send http(s) through \
        NSURLProtocol; WebKit uses it in its own tests (`TestProtocol.mm`) and declined to \
        support it "since we do not support custom NSURLProtocols as API" (WebKit bug 137299). \
        Apps reach it through `NSClassFromString` and selector strings, so strings count; so does \
        any name with WebKit's SPI prefix `_WK` (`_WKWebsiteDataTypeHSTSCache`), and an \
        underscore-prefixed selector spelled by string in an extension or category of a WebKit \
        class (`sel_getUid("_elementDidFocus:…")`, swizzled). The names one \
        function lists are one finding. \
        "Apps may only use public APIs" (App Review Guideline 2.5.1): an error for the App \
        Store, a warning when `target.distribution` is enterprise or development. The public \
        way to answer requests is `interception:` with a custom scheme. Source: App Review \
        Guideline 2.5.1; WebKit `TestProtocol.mm`; ios-domain.md §2.4; audit-checks.md IC6.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], mastg: ["MASTG-TEST-0077"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Offline.swift", """
            func enableOfflineCache() {
                let controller: AnyClass? = NSClassFromString(↓"WKBrowsingContextController")
                _ = controller
            }
            """)),
            .triggers(.init("App/CacheCleaner.swift", """
            enum CacheCleaner {
                static let removable: Set<String> = {
                    var types = WKWebsiteDataStore.allWebsiteDataTypes()
                    types.insert(↓"_WKWebsiteDataTypeHSTSCache")
                    types.insert("_WKWebsiteDataTypeCredentials")
                    return types
                }()
            }
            """)),
            .triggers(.init("App/WKWebView+Keyboard.swift", """
            extension WKWebView {
                static let swizzle: () = {
                    guard let contentView = NSClassFromString("WK" + "ContentView") else { return }
                    let selector = ↓sel_getUid("_elementDidFocus:userIsInteracting:blurPreviousNode:activityStateChanges:userObject:")
                    _ = class_getInstanceMethod(contentView, selector)
                }()
            }
            """)),
            .passes(.init("App/Offline.swift", """
            func enableOfflineCache(_ configuration: WKWebViewConfiguration) {
                configuration.setURLSchemeHandler(OfflineCache(), forURLScheme: "app-offline")
            }
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        let lenient = app.policy.map { $0.distribution != .appStore } ?? false
        // One finding per function (or type) that names private API, however many names it
        // lists: eight `_WKWebsiteDataType…` strings in a row are one use.
        var groups: [(site: FactSite, names: [String])] = []
        var seen: [String: Int] = [:]
        for (fact, use) in app.uses(.privateAPI) {
            let key = [fact.site.location.path, fact.site.enclosingType ?? "", fact.site.enclosingFunction ?? ""].joined(separator: "\u{0}")
            let name = use.detail?.text ?? "a private name"
            if let index = seen[key] {
                if !groups[index].names.contains(name) { groups[index].names.append(name) }
            } else {
                seen[key] = groups.count
                groups.append((fact.site, [name]))
            }
        }
        for group in groups {
            let names = group.names.count == 1 ? "'\(group.names[0])'" : "'\(group.names[0])' and \(group.names.count - 1) more private name\(group.names.count == 2 ? "" : "s")"
            let customProtocol = group.names.contains { Self.customProtocolNames.contains($0) }
            context.report("the private WebKit API \(names) \(group.names.count == 1 ? "is" : "are") used here: App Review refuses private API, and WebKit may remove it",
                           at: group.site, hint: customProtocol ? "answer requests with interception: and a custom scheme (WKURLSchemeHandler) instead" : "use WebKit's public API, or drop it",
                           notes: group.names.count > 1 ? [Diagnostic.Note("the names: " + group.names.joined(separator: ", "))] : [],
                           severity: lenient ? .warning : nil)
        }
    }

    static let customProtocolNames: Set<String> = ["registerSchemeForCustomProtocol", "unregisterSchemeForCustomProtocol", "WKBrowsingContextController", "browsingContextController"]
}
