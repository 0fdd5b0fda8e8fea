import WebPolicyRuntime

/// OWASP MASTG KNOW-0076 (`JavaScriptCanOpenWindowsAutomatically`); Apple's WKPreferences.
struct WebViewWindowsSameViewRule: LintRule {
    static let description = RuleDescription(
        id: "webview-script-windows-same-view",
        name: "Script-Opened Windows Replace the Page",
        category: .webView,
        defaultSeverity: .warning,
        summary: "`javascript-can-open-windows: true` with `new-windows: same-view`: a page's script can replace the page without a tap.",
        rationale: """
        `javaScriptCanOpenWindowsAutomatically` (WKPreferences; false by default on iOS) lets a \
        script call `window.open` without a user's tap; OWASP MASTG (KNOW-0076, MASTG-TEST-\
        0076) and semgrep's `webview-js-window` flag it for that reason. With `new-windows: \
        same-view` each such window loads in the view itself, replacing the page the user is \
        on whenever a page's script — or one it includes — decides to. Leave the preference \
        off, or open new windows outside the app. A WebKit for SwiftUI page has no \
        `WKPreferences` to hold the key (`policy.pageSettings.unsupported` lists it): there a \
        script opens a window only from a tap.
        """,
        failing: [
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
              new-windows: same-view
            webview:
              javascript-can-open-windows: ↓true
            """),
        ],
        passing: [
            Example("""
            navigation:
              pages:
                - host: "*.shop.example.com"
              new-windows: same-view
            webview:
              javascript-can-open-windows: false
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let setting = policy.webView?.javaScriptCanOpenWindows, setting.value,
              let navigation = policy.navigation, (navigation.newWindows?.value ?? .sameView) == .sameView else { return }
        context.report("scripts may open windows without a tap, and new windows load in the view: a page's script can replace the page whenever it likes",
                       at: setting.location, hint: "leave javascript-can-open-windows false, or set navigation.new-windows to open-externally")
    }
}
