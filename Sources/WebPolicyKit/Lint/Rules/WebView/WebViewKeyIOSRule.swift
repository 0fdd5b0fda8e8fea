import WebPolicyRuntime

/// Apple's documentation: the iOS version each configuration API arrived in.
struct WebViewKeyIOSRule: LintRule {
    static let description = RuleDescription(
        id: "webview-key-ios",
        name: "Web View Setting the Target iOS Lacks",
        category: .webView,
        defaultSeverity: .error,
        summary: "A `webview` setting or bridge feature that the policy's `target.ios` cannot apply.",
        rationale: """
        Each setting is an API of a given iOS (Apple's documentation): \
        \(WebViewSettingCatalogue.booleans.sorted { OSVersion(parsing: $0.firstIOS)! < OSVersion(parsing: $1.firstIOS)! }
            .map { "`\($0.swiftName)` \($0.firstIOS)" }.joined(separator: ", ")), \
        `WKContentWorld` (a bridge's `world` other than page) and \
        `WKScriptMessageHandlerWithReply` (`reply: true`) 14.0. On an older iOS the app cannot \
        apply it, and the view does what that iOS does without the API while the policy, lint \
        and simulate say otherwise. A value that is what the older iOS does anyway (an App Store \
        build was not inspectable before 16.4; nothing upgraded known hosts before 14.5) is \
        fine. Raise `target.ios`, or drop the key.
        """,
        failing: [
            Example("""
            target: { ios: "15.0", distribution: development }
            webview:
              inspectable: ↓true
            """),
            Example("""
            target: { ios: "15.0" }
            webview:
              element-fullscreen: ↓true
            """),
        ],
        passing: [
            Example("""
            target: { ios: "15.0" }
            webview:
              inspectable: false
            """),
            Example("""
            target: { ios: "16.4", distribution: development }
            webview:
              inspectable: true
            """),
            Example("""
            target: { ios: "15.4" }
            webview:
              element-fullscreen: true
            """),
        ]
    )

    /// Each `webview` key, the iOS that has its API, and the value an older iOS holds to
    /// without it (a policy asking for that value asks nothing the app must apply).
    static let versions: [(row: WebViewBooleanSetting, version: OSVersion)] = WebViewSettingCatalogue.booleans.map { row in
        (row, OSVersion(parsing: row.firstIOS)!)
    }

    func check(_ policy: Policy, _ context: inout RuleContext) {
        let target = policy.targetVersion
        if let section = policy.webView {
            for (row, version) in Self.versions where target < version {
                guard let setting = section[row], setting.value != row.olderIOS else { continue }
                context.report("'\(row.key): \(setting.value)' needs iOS \(version), and this policy targets iOS \(target)", at: setting.location,
                               hint: "raise target.ios to \(version), or drop the key")
            }
        }
        guard target < OSVersion(14) else { return }
        for bridge in policy.bridges {
            if let world = bridge.world, bridge.worldValue != .page {
                context.report("content worlds (WKContentWorld) need iOS 14, and this policy targets iOS \(target)", at: world.location, hint: "raise target.ios to 14.0")
            }
            if let reply = bridge.reply, reply.value {
                context.report("replies (WKScriptMessageHandlerWithReply) need iOS 14, and this policy targets iOS \(target)", at: reply.location, hint: "raise target.ios to 14.0")
            }
        }
    }
}
