import WebPolicyKit
import WebPolicyRuntime

/// A URL the page chose, handed to the system with no test of its scheme — or, under a policy,
/// of a scheme `scheme-allowlist` does not list.
struct HandOffAnySchemeRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "hand-off-any-scheme",
        name: "Page-Chosen URL of Any Scheme Handed to the System",
        category: .appCode,
        defaultSeverity: .error,
        summary: "A new window's, a navigation's or a script message's URL reaches `UIApplication.open` (directly or through the app's own helpers) with no test of its scheme, or under a policy with a scheme `scheme-allowlist` does not list.",
        rationale: """
        `UIApplication.shared.open` launches whatever app claims the URL's scheme — messages, \\
        calls, payments, shortcuts, another app's deep links — with the arguments the URL \\
        carries, and without the prompt Safari shows. A delegate that hands it `window.open`'s \\
        or a link's URL after testing only for http lets every page the view shows do that. \\
        The audit follows the URL from `createWebViewWith`, `decidePolicyFor` or a script \\
        message's body through the app's functions, across files, to the open call, and reads \\
        the scheme tests on the way (`url.scheme == "tel"`, `["mailto", "tel"].contains(…)`, a \\
        `switch` on the scheme, `canOpenURL`). Every scheme, or every scheme but a few, is \\
        reported: a warning with no policy, an error under one, where `scheme-allowlist` \\
        names the schemes pages may hand off (and the runtime's `NavigationDecider` and \\
        `WindowDecider` apply it). Under a policy, a tested scheme the allowlist lacks is an \\
        error too. Source: Apple, `open(_:options:completionHandler:)`; MASTG-TEST-0076; \\
        CWE-939; audit-checks.md SC1.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0071"], mastg: ["MASTG-TEST-0076"], cwe: ["CWE-939"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Utils.swift", """
            func openInBrowser(_ url: URL) {
                guard ["http", "https"].contains(url.scheme?.lowercased()) else {
                    UIApplication.shared.open(url, options: [:], completionHandler: nil)
                    return
                }
                UIApplication.shared.open(url)
            }
            """), .init("App/WebViewController.swift", """
            extension WebViewController: WKUIDelegate {
                func webView(_ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration,
                             for navigationAction: WKNavigationAction, windowFeatures: WKWindowFeatures) -> WKWebView? {
                    if let url = navigationAction.request.url {
                        ↓openInBrowser(url)
                    }
                    return nil
                }
            }
            """)),
            .triggers(.init("App/Decider.swift", """
            extension Decider: WKNavigationDelegate {
                func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
                             decisionHandler: @escaping (WKNavigationActionPolicy) -> Void) {
                    let url = navigationAction.request.url!
                    switch url.scheme {
                    case "tel", "sms":
                        ↓UIApplication.shared.open(url)
                        decisionHandler(.cancel)
                    default:
                        decisionHandler(.allow)
                    }
                }
            }
            """), policy: """
            scheme-allowlist:
              - scheme: tel
            """),
            // WebKit for SwiftUI: a page's navigation decider (new windows arrive here too).
            .triggers(.init("App/CompanySiteDecider.swift", """
            struct CompanySiteDecider: WebPage.NavigationDeciding {
                mutating func decidePolicy(for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences) async -> WKNavigationActionPolicy {
                    guard let url = action.request.url else { return .cancel }
                    if url.host == "help.example.com" { return .allow }
                    await ↓UIApplication.shared.open(url)
                    return .cancel
                }
            }
            """)),
            // A URL made from a script message's text.
            .triggers(.init("App/LinkBridge.swift", """
            final class LinkBridge: NSObject, WKScriptMessageHandler {
                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let text = message.body as? String, let url = URL(string: text) else { return }
                    ↓UIApplication.shared.open(url)
                }
            }
            """)),
            // The app's own maps URL with the page's coordinate in its query: the source writes
            // its scheme, so the page does not pick which app opens it.
            .passes(.init("App/GeoLinks.swift", """
            struct GeoDecider: WebPage.NavigationDeciding {
                mutating func decidePolicy(for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences) async -> WKNavigationActionPolicy {
                    guard let url = action.request.url, url.isGeoURL else { return .allow }
                    let coordinate = url.absoluteString.replacingOccurrences(of: "geo:", with: "")
                    if let maps = URL(string: "http://maps.apple.com/?ll=\\(coordinate)") {
                        await UIApplication.shared.open(maps)
                    }
                    return .cancel
                }
            }
            """)),
            .passes(.init("App/Decider.swift", """
            extension Decider: WKNavigationDelegate {
                func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
                             decisionHandler: @escaping (WKNavigationActionPolicy) -> Void) {
                    guard let url = navigationAction.request.url else { return decisionHandler(.cancel) }
                    if url.scheme == "mailto" || url.scheme == "tel" {
                        UIApplication.shared.open(url)
                        return decisionHandler(.cancel)
                    }
                    if url.scheme == "geo" {
                        let coordinate = url.absoluteString.dropFirst(4)
                        // Another `url`: the app's own maps URL, not the page's.
                        if let url = URL(string: "https://maps.apple.com/?ll=\\(coordinate)") { UIApplication.shared.open(url) }
                        return decisionHandler(.cancel)
                    }
                    decisionHandler(.allow)
                }
            }
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        let allowed = app.policy.map { Set($0.schemeAllowlist.map { $0.scheme.value.lowercased() }) }
        for fact in app.facts() {
            guard case .handOff(let handOff) = fact.kind else { continue }
            var notes: [Diagnostic.Note] = []
            if let site = handOff.openSite, site != fact.site.location { notes.append(Diagnostic.Note("the URL is opened here", at: site)) }
            if !handOff.through.isEmpty { notes.append(Diagnostic.Note("through \(Self.list(handOff.through))")) }
            let input = Self.phrase(handOff.trigger)
            if handOff.schemes.isUnbounded {
                let consequence = allowed.map { $0.isEmpty ? "but scheme-allowlist allows none" : "but scheme-allowlist allows only \(SchemeScope.list($0.sorted()))" }
                    ?? "a page can launch any installed app's URL scheme with arguments it picks"
                context.report("\(input) \(handOff.schemes.phrase) is handed to the system to open, \(consequence)",
                               at: fact.site, hint: "open only the schemes pages may hand off (test url.scheme against a list), or decide with the runtime's NavigationDecider / WindowDecider (a WebKit for SwiftUI page: PolicyNavigationDecider)",
                               notes: notes, severity: app.policy == nil ? .warning : nil)
            } else if case .only(let schemes) = handOff.schemes, let allowed {
                let missing = schemes.filter { !allowed.contains($0) && $0 != "http" && $0 != "https" }
                guard !missing.isEmpty else { continue }
                context.report("\(input) of the scheme\(missing.count == 1 ? "" : "s") \(SchemeScope.list(missing)) is handed to the system to open, but scheme-allowlist does not list \(missing.count == 1 ? "it" : "them")",
                               at: fact.site, hint: "add \(missing.count == 1 ? "it" : "them") to scheme-allowlist with the hosts pages may open, or stop opening \(missing.count == 1 ? "it" : "them")", notes: notes)
            }
        }
    }

    static func phrase(_ trigger: HandOff.Trigger) -> String {
        switch trigger {
        case .newWindow: return "a new window's URL"
        case .navigation: return "a navigation's URL"
        case .message: return "a URL from a script message"
        }
    }

    static func list(_ functions: [String]) -> String { SchemeScope.list(functions) }
}
