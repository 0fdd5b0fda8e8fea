import WebPolicyKit
import WebPolicyRuntime

/// Every other on/off `webview:` setting against the code that sets its property.
struct WebViewSettingMismatchRule: AuditRule {
    /// Rows with a rule of their own, which knows more of them (an inspectable release
    /// build, JavaScript's deprecated switch, windows a script opens).
    static let rowsWithTheirOwnRule: Set<String> = ["inspectable", "javascript", "javascript-can-open-windows"]

    static let description = RuleDescription(
        id: "webview-setting-mismatch",
        name: "Web View Setting Against the Policy",
        category: .appCode,
        defaultSeverity: .warning,
        summary: "The app's code sets a web view property that `webview:` holds to another value than the policy says.",
        rationale: """
        `webview:` is what the app applies (`configureWebView`), what lint checks against the \
        target iOS and what reviewers read. Code that sets the same property itself — \
        \(WebViewSettingCatalogue.booleans.filter { !rowsWithTheirOwnRule.contains($0.key) }.map { "`\($0.swiftName)`" }.joined(separator: ", ")) — \
        to another value wins or loses by the order of the calls, and the policy no longer says \
        what ships: a Safe Browsing warning turned off, known hosts left on http, a page taking \
        the whole screen. A property left out of the policy is held to the platform's default. \
        The same for the keys the policy says only when it writes them: the web-page \
        preferences (`isLockdownModeEnabled`, `securityRestrictionMode`, \
        `preferredHTTPSNavigationPolicy` — on `defaultWebpagePreferences` or a page's \
        `defaultNavigationPreferences`), the data store (`.nonPersistent()` where the policy \
        keeps data, `.default()` where it keeps none) and a `webExtensionController` where the \
        policy says `web-extensions: none`. Code that turns Lockdown Mode off \
        (`isLockdownModeEnabled = false`) where the policy leaves it to the device is an \
        error: it overrides a user at risk who turned it on. Source: Apple's documentation of each property \
        (`WKPreferences`, `WKWebViewConfiguration`); WebKit's `WKWebpagePreferences.h`; \
        MASVS-PLATFORM-2.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Player.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                ↓configuration.preferences.isElementFullscreenEnabled = true
            }
            """), policy: """
            webview:
              javascript: true
            """),
            .triggers(.init("App/Browser.m", """
            - (void)configure:(WKWebViewConfiguration *)configuration {
                ↓configuration.preferences.fraudulentWebsiteWarningEnabled = NO;
            }
            """), policy: """
            webview:
              fraudulent-website-warning: true
            """),
            .passes(.init("App/Player.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                configuration.preferences.isElementFullscreenEnabled = true
            }
            """), policy: """
            webview:
              element-fullscreen: true
            """),
            .triggers(.init("App/Browser.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                ↓configuration.defaultWebpagePreferences.preferredHTTPSNavigationPolicy = .automaticFallbackToHTTP
                ↓configuration.websiteDataStore = .default()
            }
            """), policy: """
            target: { ios: "18.2" }
            webview:
              https-navigation: error-on-failure
              data-store: non-persistent
            """),
            .triggers(.init("App/Reader.swift", """
            func makePage() -> WebPage {
                var configuration = WebPage.Configuration()
                ↓configuration.defaultNavigationPreferences.isLockdownModeEnabled = false
                ↓configuration.webExtensionController = WKWebExtensionController()
                return WebPage(configuration: configuration)
            }
            """), policy: """
            target: { ios: "26.0" }
            webview:
              lockdown: true
              web-extensions: none
            """),
            // Left to the device: code that turns Lockdown Mode off is an error.
            .triggers(.init("App/Reader.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                ↓configuration.defaultWebpagePreferences.isLockdownModeEnabled = false
            }
            """), policy: """
            target: { ios: "16.0" }
            webview:
              lockdown: device
            """),
            .passes(.init("App/Browser.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                configuration.defaultWebpagePreferences.preferredHTTPSNavigationPolicy = .errorOnFailure
                configuration.websiteDataStore = .nonPersistent()
                configuration.defaultWebpagePreferences.isLockdownModeEnabled = true
            }
            """), policy: """
            target: { ios: "18.2" }
            webview:
              https-navigation: error-on-failure
              data-store: non-persistent
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let section = app.policy?.webView else { return }
        for row in WebViewSettingCatalogue.booleans where !Self.rowsWithTheirOwnRule.contains(row.key) {
            row.drift(in: app, against: section, &context)
        }
        for row in WebViewSettingCatalogue.choices { row.drift(in: app, against: section, &context) }
        dataStoreDrift(in: app, against: section, &context)
        extensionsDrift(in: app, against: section, &context)
    }

    /// `.default()`, `.nonPersistent()` or `WKWebsiteDataStore(forIdentifier:)` where the
    /// policy names another kind of store.
    private func dataStoreDrift(in app: AuditSubject, against section: WebViewSection, _ context: inout AuditRuleContext) {
        guard let wanted = section.dataStore else { return }
        for (fact, setting) in app.settings(.websiteDataStore) where !setting.onCopy {
            guard let kind = setting.dataStoreKind, kind != wanted.value.kind else { continue }
            context.report("\(setting.target) is a \(kind) data store, but the policy says data-store: \(wanted.value.kind)",
                           at: fact.site, hint: "apply webview: with policy.configureWebView(configuration), or change the policy",
                           notes: [Diagnostic.Note("the policy says it here", at: wanted.location)])
        }
    }

    /// A `webExtensionController` where the policy says `web-extensions: none`.
    private func extensionsDrift(in app: AuditSubject, against section: WebViewSection, _ context: inout AuditRuleContext) {
        guard let extensions = section.webExtensions, extensions.value.isEmpty else { return }
        for (fact, setting) in app.settings(.webExtensionController) where !setting.onCopy && setting.value.kind != .nil {
            context.report("\(setting.target) gives the view a web extension controller, but the policy says web-extensions: none",
                           at: fact.site, hint: "list the extensions the app loads under webview.web-extensions, or drop the controller",
                           notes: [Diagnostic.Note("the policy says it here", at: extensions.location)])
        }
    }
}
