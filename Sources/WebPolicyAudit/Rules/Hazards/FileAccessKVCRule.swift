import WebPolicyKit
import WebPolicyRuntime

/// MASTG-TEST-0077 shows exactly these lines: undocumented preferences set by key.
struct FileAccessKVCRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "file-access-kvc",
        name: "File Access Opened Through Key-Value Coding",
        category: .appHazards,
        defaultSeverity: .error,
        summary: "`allowFileAccessFromFileURLs` or `allowUniversalAccessFromFileURLs` is set by key: a `file:` page may then read other files, or any origin.",
        rationale: """
        These preferences are not public API; set through `setValue(_:forKey:)` they let a \
        page loaded from a file read other local files (`allowFileAccessFromFileURLs`) or \
        make requests to any origin (`allowUniversalAccessFromFileURLs`) — a universal XSS \
        waiting for one injected script. No policy key allows it. Source: MASTG-TEST-0077; \
        MASWE-0069; App Review Guideline 2.5.1; audit-checks.md WV6.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0069"], mastg: ["MASTG-TEST-0077"], cwe: ["CWE-552"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Offline.swift", """
            func configure(_ configuration: WKWebViewConfiguration) {
                ↓configuration.preferences.setValue(true, forKey: "allowFileAccessFromFileURLs")
            }
            """)),
            .triggers(.init("App/Offline.m", """
            @implementation Offline
            - (void)configure:(WKWebViewConfiguration *)configuration {
                ↓[configuration setValue:@YES forKey:@"allowUniversalAccessFromFileURLs"];
            }
            @end
            """)),
            .passes(.init("App/Settings.swift", """
            func store(_ defaults: UserDefaults) {
                defaults.setValue(true, forKey: "onboardingDone")
            }
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        for (fact, use) in app.uses(.keyValueCoding) {
            guard let key = use.detail?.stringValue, WebKitVocabulary.fileAccessKeys.contains(key) else { continue }
            context.report("the private preference '\(key)' is set by key: pages loaded from files get access the platform does not give them",
                           at: fact.site, hint: "remove it; serve local pages through interception: (an app scheme) or loadFileURL with read access to their own folder")
        }
    }
}
