import WebPolicyKit
import WebPolicyRuntime

/// Where the app's code sets a `webview:` property to what the policy does not say: the one
/// reading behind `javascript-windows-mismatch` and `webview-setting-mismatch`.
extension WebViewBooleanSetting {
    func drift(in app: AuditSubject, against section: WebViewSection, _ context: inout AuditRuleContext) {
        guard let key = AppFact.SettingKey(self) else { return }
        let written = section[self]
        let wanted = written?.value ?? defaultValue
        for (fact, setting) in app.settings(key) {
            // A scalar set on a running view's copy does nothing; webview-config-after-init says so.
            guard let value = setting.value.boolValue, value != wanted, !(setting.onCopy && key.isConfigurationScalar) else { continue }
            context.report("\(setting.target) is set to \(value), but the policy says \(self.key): \(wanted)\(written == nil ? " (the default)" : "")",
                           at: fact.site, hint: "apply webview: with policy.configureWebView(configuration), or change the policy",
                           notes: written.map { [Diagnostic.Note("the policy says it here", at: $0.location)] } ?? [])
        }
    }
}

/// Where the app's code sets a web-page preference to another value than the policy writes
/// (only where the policy writes one: an absent key leaves it to the platform).
extension WebViewChoiceSetting {
    func drift(in app: AuditSubject, against section: WebViewSection, _ context: inout AuditRuleContext) {
        guard let key = AppFact.SettingKey(rawValue: objectiveCName) else { return }
        guard let written = section[choice: self], choice(named: written.value) != nil else {
            // Left to the device (`lockdown: device`, or no key): code that turns Lockdown Mode
            // off overrides what a user at risk turned on.
            guard self.key == "lockdown" else { return }
            for (fact, setting) in app.settings(key) where self.choice(writtenAs: setting.value.text)?.name == "false" {
                context.report("\(setting.target) turns Lockdown Mode off for the view's pages, even for a user who turned it on for the device, and the policy leaves it to the device",
                               at: fact.site, hint: "drop the line, or write lockdown: false in the policy if the team decides so",
                               notes: section[choice: self].map { [Diagnostic.Note("the policy says lockdown: device here", at: $0.location)] } ?? [], severity: .error)
            }
            return
        }
        for (fact, setting) in app.settings(key) {
            guard let choice = self.choice(writtenAs: setting.value.text), choice.name != written.value else { continue }
            context.report("\(setting.target) is set to \(choice.swift), but the policy says \(self.key): \(written.value)",
                           at: fact.site, hint: "apply webview: with policy.configureWebView(configuration), or change the policy",
                           notes: [Diagnostic.Note("the policy says it here", at: written.location)])
        }
    }
}
