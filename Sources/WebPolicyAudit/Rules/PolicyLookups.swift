import WebPolicyKit
import WebPolicyRuntime

/// What the audit rules ask of a policy, in their words.
extension Policy {
    func bridges(named name: String) -> [BridgeDeclaration] {
        bridges.filter { $0.name.value == name }
    }

    /// Where `webview.file-access` is said, or that it is left at its default: the note of the
    /// findings about what pages may read.
    var fileAccessNotes: [Diagnostic.Note] {
        webView?.fileAccess.map { [Diagnostic.Note("the policy says file-access: \($0.value) here", at: $0.location)] }
            ?? [Diagnostic.Note("the policy leaves webview.file-access at its default, none")]
    }

    /// Where the policy's own file starts, for findings about what the policy lacks.
    var rootLocation: SourceLocation {
        SourceLocation(path: root.file.path, range: SourceRange(at: SourcePosition(line: 1, column: 1)))
    }
}

extension AuditSubject {
    /// Handler registrations whose name the source spells out (directly or through a
    /// constant), and whether any is left that it does not.
    var messageHandlers: [(fact: AppFact, handler: AppFact.MessageHandler)] {
        facts().compactMap { fact in
            if case .messageHandler(let handler) = fact.kind { return (fact, handler) }
            return nil
        }
    }

    /// The script message handlers' receiving methods (`userContentController(_:didReceive:)`),
    /// with the class each is a method of.
    var messageReceivers: [(type: String, fact: AppFact, method: AppFact.DelegateMethod)] {
        facts().compactMap { fact in
            guard case .delegate(let method) = fact.kind, method.role == .receiveScriptMessage, let type = fact.site.enclosingType else { return nil }
            return (type, fact, method)
        }
    }

    /// The names each handler class registers itself under, not through the runtime's gate, in
    /// a release build (a name the source does not spell out, as written), classes in order.
    var handlerNamesByClass: (order: [String], names: [String: [String]]) {
        var names: [String: [String]] = [:]
        var order: [String] = []
        for (fact, handler) in messageHandlers where !handler.throughGate && fact.site.inRelease {
            guard let type = handler.handlerClass else { continue }
            if names[type] == nil { order.append(type) }
            let name = handler.name.stringValue ?? handler.name.quoted
            if !(names[type] ?? []).contains(name) { names[type, default: []].append(name) }
        }
        return (order, names)
    }

    var schemeHandlers: [(fact: AppFact, handler: AppFact.SchemeHandler)] {
        facts().compactMap { fact in
            if case .schemeHandler(let handler) = fact.kind { return (fact, handler) }
            return nil
        }
    }

    func settings(_ key: AppFact.SettingKey) -> [(fact: AppFact, setting: AppFact.Setting)] {
        facts().compactMap { fact in
            if case .setting(let setting) = fact.kind, setting.key == key { return (fact, setting) }
            return nil
        }
    }

    func uses(_ api: AppFact.APIUse.API) -> [(fact: AppFact, use: AppFact.APIUse)] {
        facts().compactMap { fact in
            if case .api(let use) = fact.kind, use.api == api { return (fact, use) }
            return nil
        }
    }

    var webViews: [(fact: AppFact, view: AppFact.WebViewConstruction)] {
        facts().compactMap { fact in
            if case .webView(let view) = fact.kind { return (fact, view) }
            return nil
        }
    }

    /// Whether the app builds a web view at all (a hazard in an app without one is moot).
    var hasWebViews: Bool { !webViews.isEmpty }

    /// Info.plists (not entitlements).
    var infoPlists: [InfoPlist] { inventory.plists.filter { !$0.isEntitlements } }
}
