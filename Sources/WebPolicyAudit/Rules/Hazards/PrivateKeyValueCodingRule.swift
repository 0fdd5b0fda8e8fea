import WebPolicyKit
import WebPolicyRuntime

/// `setValue(_:forKey:)` on a web view, its configuration or its preferences with a key that is
/// no public property of theirs: private API reached by key, which App Review refuses and
/// WebKit may rename in any release.
struct PrivateKeyValueCodingRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "private-key-value-coding",
        name: "Private WebKit API Through Key-Value Coding",
        category: .appHazards,
        defaultSeverity: .error,
        summary: "The code sets a key on a web view, its configuration or its preferences that none of them publishes (`setValue(_, forKey: \"viewScale\")`): private API by another name.",
        rationale: """
        Key-value coding reaches any property an object has, public or not, so apps set \\
        WebKit's private ones by name: `viewScale`, `drawsBackground`, `_`-prefixed keys. App \\
        Review Guideline 2.5.1 ("Apps may only use public APIs") applies whatever the spelling, \\
        and the key can vanish or change meaning in any WebKit release — the call then raises \\
        `NSUnknownKeyException` and the app ends. A key is private here when it is not a \\
        public property of `WKWebView` (or the `UIView` it is), `WKWebViewConfiguration`, \\
        `WKPreferences` or `WKWebpagePreferences`, on a receiver named as one of them (or \\
        `self` in a `WKWebView` subclass). The file-access and inspector keys have rules of \\
        their own. Source: App Review Guideline 2.5.1; Apple, `WKWebView`, \\
        `WKWebViewConfiguration`, `WKPreferences`; audit-checks.md HZ3.
        """,
        standards: .init(masvs: ["MASVS-CODE-3"], cwe: ["CWE-1104"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/WebViewController.swift", """
            func applyZoom(_ scale: Double, to webView: WKWebView) {
                ↓webView.setValue(scale, forKey: "viewScale")
            }
            """)),
            .triggers(.init("App/Transparent.m", """
            @implementation Transparent
            - (void)clear:(WKWebView *)webView {
                ↓[webView setValue:@NO forKey:@"drawsBackground"];
            }
            @end
            """)),
            .passes(.init("App/WebViewController.swift", """
            func configure(_ webView: WKWebView, defaults: UserDefaults) {
                webView.setValue(true, forKey: "allowsBackForwardNavigationGestures")
                webView.configuration.preferences.setValue(12, forKey: "minimumFontSize")
                defaults.setValue(2.0, forKey: "viewScale")
            }
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        for (fact, use) in app.uses(.keyValueCoding) {
            guard let key = use.detail?.stringValue, !WebKitVocabulary.fileAccessKeys.contains(key), key != WebKitVocabulary.developerExtrasKey,
                  let owner = WebKitVocabulary.keyValueOwner(of: use.receiver, in: fact.site.enclosingType, webViewClasses: app.inventory.webViewClasses),
                  !WebKitVocabulary.isPublicKey(key, of: owner) else { continue }
            context.report("'\(key)' is set by key on \(use.receiver ?? "self"), but it is no public property of \(owner.rawValue): private API, which App Review refuses and WebKit may drop",
                           at: fact.site, hint: "use the public API for it, or drop it; if the key is gone in a later iOS, the call raises NSUnknownKeyException")
        }
    }
}
