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
        \((WebViewSettingCatalogue.booleans.map { ($0.swiftName, $0.firstIOS) } + WebViewSettingCatalogue.choices.map { ($0.swiftName, $0.firstIOS) })
            .sorted { OSVersion(parsing: $0.1)! < OSVersion(parsing: $1.1)! }.map { "`\($0.0)` \($0.1)" }.joined(separator: ", ")), \
        `WKWebsiteDataStore(forIdentifier:)` (`data-store: {profile: …}`) 17.0, \
        `webExtensionController` (a list of `web-extensions`) 18.4, the UI delegate's permission \
        requests (`permissions` other than ask) 15.0, \
        `WKContentWorld` (a bridge's `world` other than page) and \
        `WKScriptMessageHandlerWithReply` (`reply: true`) 14.0. On an older iOS the app cannot \
        apply it, and the view does what that iOS does without the API while the policy, lint \
        and simulate say otherwise. A value that is what the older iOS does anyway (an App Store \
        build was not inspectable before 16.4; nothing upgraded known hosts before 14.5) is \
        fine (`lockdown: false`, `https-navigation: keep-as-requested`, `web-extensions: none`, \
        `permissions` that ask). Raise `target.ios`, or drop the key.
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
            Example("""
            target: { ios: "17.0" }
            webview:
              https-navigation: ↓error-on-failure
            """),
            Example("""
            target: { ios: "16.0" }
            webview:
              data-store: ↓{ profile: work }
            """),
            Example("""
            target: { ios: "14.0" }
            webview:
              permissions:
                camera: ↓deny
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
            Example("""
            target: { ios: "15.0" }
            webview:
              lockdown: false
              https-navigation: keep-as-requested
              web-extensions: none
              permissions:
                camera: ask
            """),
            Example("""
            target: { ios: "26.4" }
            webview:
              security-restriction-mode: maximize-compatibility
              web-extensions: [reader]
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
        if let section = policy.webView { checkSecurity(section, target: target, &context) }
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

    private func checkSecurity(_ section: WebViewSection, target: OSVersion, _ context: inout RuleContext) {
        func needs(_ version: String, _ what: String, at location: SourceLocation) {
            guard let version = OSVersion(parsing: version), target < version else { return }
            context.report("\(what) needs iOS \(version), and this policy targets iOS \(target)", at: location, hint: "raise target.ios to \(version), or drop the key")
        }
        for row in WebViewSettingCatalogue.choices {
            guard let written = section[choice: row], written.value != row.olderIOS, row.choice(named: written.value) != nil else { continue }
            needs(row.firstIOS, "'\(row.key): \(written.value)'", at: written.location)
        }
        if let store = section.dataStore, case .profile = store.value {
            needs(store.value.firstIOS, "a data store of its own (WKWebsiteDataStore(forIdentifier:))", at: store.location)
        }
        if let extensions = section.webExtensions, !extensions.value.isEmpty {
            needs("18.4", "a list of web extensions (WKWebExtensionController)", at: extensions.location)
        }
        for declaration in section.permissions?.value ?? [] where declaration.rule != .ask {
            needs(PermissionKind.firstIOS, "'\(declaration.kind.rawValue): \(declaration.rule.kind == "origins" ? "[…]" : declaration.rule.kind)' (the UI delegate's permission requests)", at: declaration.location)
        }
    }
}
