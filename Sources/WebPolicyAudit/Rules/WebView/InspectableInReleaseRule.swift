import WebPolicyKit
import WebPolicyRuntime

/// `isInspectable` (iOS 16.4, "Defaults to false") in a release build: with no policy a hazard
/// on its own, with one against `webview.inspectable`. A flag behind a run-time test is
/// evaluated for an App Store build (`FlagTable`), and the reasons are said.
struct InspectableInReleaseRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "inspectable-in-release",
        name: "Inspectable Web View in a Release Build",
        category: .appCode,
        defaultSeverity: .error,
        summary: "A release build sets `isInspectable = true` (or the pre-16.4 `developerExtrasEnabled` key) — directly, or behind a run-time test that holds in App Store builds — and no policy says the view is inspectable.",
        rationale: """
        An inspectable view lets anyone with the device and a Mac read and change the page, its \
        storage and its bridges in Safari's Web Inspector. `webview.inspectable` (default false) \
        is the team's decision, applied by the runtime's `configureInspection`; with no policy \
        the audit reports every release-build assignment. An assignment under `#if DEBUG` is \
        fine (audit the debug build with `--configuration debug`). One behind a run-time test \
        is evaluated for an App Store build, following the app's own Booleans across files: \
        `if !Bundle.main.isProduction` where `isProduction` reads `appStoreReceiptURL` for a \
        `sandboxReceipt` holds in App Store builds (their receipt is named `receipt`), and the \
        finding says so, with the lines it rests on. `_isDebugAssertConfiguration()` and an \
        Xcode scheme's environment variable are false there. A test or a value the audit \
        cannot evaluate (a user default, a remote flag) is a warning: the audit cannot see \
        what ships. Source: Apple, `isInspectable`, `appStoreReceiptURL`; MASWE-0074; MASTG \
        KNOW-0076; audit-checks.md WV1.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2", "MASVS-RESILIENCE-4"], maswe: ["MASWE-0074"], mastg: ["MASTG-TEST-0076"], cwe: ["CWE-489"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/AppWebView.swift", """
            class AppWebView: WKWebView {
                override init(frame: CGRect, configuration: WKWebViewConfiguration) {
                    super.init(frame: frame, configuration: configuration)
                    #if compiler(>=5.8)
                    ↓isInspectable = true
                    #endif
                }
            }
            """), policy: """
            webview:
              inspectable: false
            """),
            .triggers(.init("App/Debugging.m", """
            @implementation Debugging
            - (void)setUp:(WKWebView *)webView {
                ↓webView.inspectable = YES;
            }
            @end
            """), policy: """
            webview:
              javascript: true
            """),
            .triggers(.init("App/ReaderModel.swift", """
            func makeReader() -> WKWebView {
                let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
                ↓webView.isInspectable = true
                return webView
            }
            """)),
            .triggers(.init("App/Bundle+Build.swift", """
            extension Bundle {
                var isProduction: Bool {
                    #if DEBUG
                    false
                    #else
                    appStoreReceiptURL?.path.contains("sandboxReceipt") == true
                    #endif
                }
            }
            """), .init("App/BrowserModel.swift", """
            func makeBrowser() -> WKWebView {
                let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
                if !Bundle.main.isProduction {
                    ↓webView.isInspectable = true
                }
                return webView
            }
            """)),
            .triggers(.init("App/ReaderPage.swift", """
            import WebKit

            @MainActor func makeReader() -> WebPage {
                let page = WebPage()
                ↓page.isInspectable = true
                return page
            }
            """), policy: """
            webview:
              inspectable: false
            """),
            .passes(.init("App/AppWebView.swift", """
            func configure(_ webView: WKWebView) {
                #if DEBUG
                webView.isInspectable = true
                #else
                webView.isInspectable = false
                #endif
                if ProcessInfo.processInfo.environment["WEB_INSPECTOR"] != nil {
                    webView.isInspectable = true
                }
            }
            """), policy: """
            webview:
              inspectable: false
            """),
            .passes(.init("App/AppWebView.swift", """
            func configure(_ webView: WKWebView) {
                webView.isInspectable = true
            }
            """), policy: """
            webview:
              inspectable: true
            """),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        let policy = app.policy
        guard policy?.webView?.inspectable?.value != true else { return }
        let noted: [Diagnostic.Note]
        let against: String
        if let policy {
            noted = policy.webView?.inspectable.map { [Diagnostic.Note("the policy says inspectable: false here", at: $0.location)] } ?? [Diagnostic.Note("the policy leaves webview.inspectable at its default, false")]
            against = "but the policy says the web view is not inspectable"
        } else {
            noted = []
            against = "so Safari's Web Inspector can read and change its pages, storage and bridges on any device"
        }
        let hint = policy == nil ? "set it under #if DEBUG only, or declare webview: inspectable: true in the policy if the team decides it ships so"
            : "set it under #if DEBUG only, or through policy.configureInspection(webView)"
        let flags = app.inventory.flags
        for (fact, setting) in app.settings(.inspectable) {
            var value = setting.value.boolValue.map { ConditionValue($0) } ?? setting.valueCondition.map(flags.evaluate) ?? ConditionValue(nil)
            var when = ""
            if let condition = setting.condition {
                let holds = flags.evaluate(condition)
                if holds.value == false { continue }
                if value.value == true {
                    value = ConditionValue(holds.value, reasons: holds.reasons + value.reasons)
                    let whenever = holds.undecided.isEmpty ? "" : " whenever " + holds.undecided.map { "`\($0)`" }.joined(separator: " and ")
                    when = holds.value == true ? " when `\(condition.text)`, which holds in App Store builds\(whenever)" : " when `\(condition.text)`"
                }
            }
            switch value.value {
            case false?:
                continue
            case true?:
                let from = setting.value.boolValue == nil ? " (\(setting.value.quoted), true in App Store builds)" : ""
                context.report("\(setting.target) is set to true in a release build\(when)\(from), \(against)",
                               at: fact.site, hint: hint, notes: value.reasons + noted)
            case nil:
                let what = when.isEmpty ? "is set from \(setting.value.quoted), which the audit cannot read"
                    : "is set to true\(when), a run-time test the audit cannot evaluate for an App Store build"
                context.report("\(setting.target) \(what); \(policy == nil ? "no policy declares the view inspectable" : "the policy says the web view is not inspectable")",
                               at: fact.site, hint: "make sure it is false in release builds (set it under #if DEBUG), or suppress this with why", notes: value.reasons + noted, severity: .warning)
            }
        }
        for (fact, use) in app.uses(.keyValueCoding) where use.detail?.stringValue == WebKitVocabulary.developerExtrasKey {
            context.report("the private key 'developerExtrasEnabled' makes the view inspectable in a release build, \(against)",
                           at: fact.site, hint: "remove it; on iOS 16.4 and later use isInspectable under #if DEBUG", notes: noted)
        }
    }
}
