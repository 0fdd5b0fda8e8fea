import WebPolicyRuntime

/// WebKit's WKWebpagePreferences.h: `securityRestrictionMode` (iOS 26.4) beside
/// `lockdownModeEnabled` (iOS 16).
struct WebViewLockdownConflictRule: LintRule {
    static let description = RuleDescription(
        id: "webview-lockdown-conflict",
        name: "Lockdown and the Restriction Mode Disagree",
        category: .webView,
        defaultSeverity: .error,
        summary: "`lockdown` and `security-restriction-mode` ask for different things: one says Lockdown Mode, the other not.",
        rationale: """
        Both keys set WebKit's web-page preferences: `isLockdownModeEnabled` (iOS 16) and, \
        since iOS 26.4, `securityRestrictionMode` (none, maximize-compatibility, lockdown), \
        whose `lockdown` is Lockdown Mode itself. A policy with `lockdown: true` and a mode \
        other than lockdown, or `lockdown: false` and the lockdown mode, leaves the result to \
        the order the app sets them and to the iOS it runs on — and WebKit's header says a \
        laxer mode than the system's is ignored silently. Say it once: the mode on iOS 26.4 \
        and later, `lockdown` for the iOS before it, both the same way. Source: WebKit, \
        `Source/WebKit/UIProcess/API/Cocoa/WKWebpagePreferences.h`.
        """,
        failing: [
            Example("""
            target: { ios: "26.4" }
            webview:
              lockdown: true
              security-restriction-mode: ↓maximize-compatibility
            """),
            Example("""
            target: { ios: "26.4" }
            webview:
              lockdown: false
              security-restriction-mode: ↓lockdown
            """),
        ],
        passing: [
            Example("""
            target: { ios: "26.4" }
            webview:
              lockdown: true
              security-restriction-mode: lockdown
            """),
            Example("""
            target: { ios: "26.4" }
            webview:
              lockdown: false
              security-restriction-mode: maximize-compatibility
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let section = policy.webView,
              let lockdownRow = WebViewSettingCatalogue.choice(key: "lockdown"), let modeRow = WebViewSettingCatalogue.choice(key: "security-restriction-mode"),
              let lockdown = section[choice: lockdownRow], let mode = section[choice: modeRow] else { return }
        guard lockdown.value != "device", (lockdown.value == "true") != (mode.value == "lockdown") else { return }
        let wanted = lockdown.value == "true" ? "lockdown" : "none or maximize-compatibility"
        context.report("'security-restriction-mode: \(mode.value)' and 'lockdown: \(lockdown.value)' disagree: one asks for Lockdown Mode, the other not",
                       at: mode.location, hint: "write security-restriction-mode: \(wanted), or change lockdown",
                       notes: [Diagnostic.Note("lockdown is set here", at: lockdown.location)])
    }
}
