import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// `webpolicy init --from-app`: a first policy written from what the app already does, so a
/// team adopting webpolicy on an existing app starts from its truth, not a blank page. Every
/// section says where it came from; what the code cannot tell (which origins may call a
/// bridge, what a handler serves) is left for the team and said in `warnings`. The draft lints
/// without errors, and `audit` of the same app under it reports no mismatch.
public struct PolicyDraft {
    public var yaml: String
    /// What the team must decide, for standard error.
    public var warnings: [String]

    public init(inventory: AppInventory, name: String) {
        var warnings: [String] = []
        var sections: [String] = []
        let subject = AuditSubject(inventory: inventory, policy: nil)
        let plists = inventory.plists.filter { !$0.isEntitlements }

        // http-allowlist: the insecure ATS exceptions, as the app's Info.plists grant them.
        var hosts: [(String, Bool, String)] = []
        for plist in plists {
            for exception in plist.transportSecurity?.exceptionDomains ?? [] where exception.allowsInsecureHTTPLoads?.value == true {
                let domain = exception.domain.value.lowercased()
                guard !["localhost", "127.0.0.1", "::1"].contains(domain), !InfoPlist.isPlaceholder(domain), Self.isHost(domain),
                      !hosts.contains(where: { $0.0 == domain }) else { continue }
                hosts.append((domain, exception.includesSubdomains, plist.path))
            }
        }
        if !hosts.isEmpty {
            var section = "# From NSExceptionAllowsInsecureHTTPLoads in the Info.plists.\nhttp-allowlist:\n"
            for (host, subdomains, path) in hosts.sorted(by: { $0.0 < $1.0 }) {
                section += "  - host: \(host)\n"
                if subdomains { section += "    include-subdomains: true\n" }
                section += "    reason: \(Self.quoted("allowed over plain http in \(path); say why"))\n"
            }
            sections.append(section)
        }
        if plists.contains(where: { $0.transportSecurity?.allowsArbitraryLoads?.value == true || $0.transportSecurity?.allowsArbitraryLoadsInWebContent?.value == true }) {
            warnings.append("an Info.plist turns App Transport Security off (NSAllowsArbitraryLoads…): the draft lists only the exception domains; audit reports the key until it goes, or until a comment above it says why: <!-- webpolicy:disable-next-line ats-arbitrary-loads -- reason -->")
        }

        // scheme-allowlist: what the app may ask canOpenURL about.
        let queried = Set(plists.flatMap { $0.queriesSchemes?.schemes ?? [] }.map { $0.value.lowercased() })
            .filter { !["http", "https"].contains($0) && !InfoPlist.isPlaceholder($0) && Self.isScheme($0) }
        if !queried.isEmpty {
            var section = "# From LSApplicationQueriesSchemes: the schemes the app asks about; web pages may open them.\nscheme-allowlist:\n"
            for scheme in queried.sorted() { section += "  - scheme: \(scheme)\n" }
            sections.append(section)
        }

        // interception: the schemes the app registers handlers for.
        var intercepted: [String: String] = [:]
        for (fact, handler) in subject.schemeHandlers where fact.site.inRelease {
            guard let scheme = handler.scheme?.stringValue?.lowercased(), WebKitSchemes.acceptsHandler(for: scheme), Self.isScheme(scheme) else {
                if let scheme = handler.scheme, scheme.stringValue == nil {
                    warnings.append("\(fact.site.location.path):\(fact.site.location.range.start.line): a scheme handler is registered for \(scheme.quoted), which the source does not spell out: add its interception entry by hand")
                }
                continue
            }
            intercepted[scheme] = intercepted[scheme] ?? Self.handlerName(handler.handler)
        }
        if !intercepted.isEmpty {
            var section = "# From setURLSchemeHandler(_:forURLScheme:): the app's own handlers answer these.\ninterception:\n"
            for (scheme, handler) in intercepted.sorted(by: { $0.key < $1.key }) {
                section += "  - scheme: \(scheme)\n    handler: \(Self.quoted(handler))\n"
            }
            sections.append(section)
        }

        // bridges: every registration whose name the source spells out.
        var bridges: [(name: String, world: String, reply: Bool)] = []
        for (fact, handler) in subject.messageHandlers where fact.site.inRelease {
            guard let name = handler.name.stringValue, !name.isEmpty else {
                warnings.append("\(fact.site.location.path):\(fact.site.location.range.start.line): a message handler is registered under \(handler.name.quoted), which the source does not spell out: declare its bridge by hand")
                continue
            }
            let world = handler.throughGate ? "page" : (handler.worldName ?? "page")
            guard !bridges.contains(where: { $0.name == name && $0.world == world }) else { continue }
            bridges.append((name, world, handler.reply))
        }
        if !bridges.isEmpty {
            var section = "# From the app's script message handlers. Which origins may call each is the team's\n# decision: until it lists them, no page can (the runtime's gate refuses every message).\nbridges:\n"
            for bridge in bridges.sorted(by: { ($0.name, $0.world) < ($1.name, $1.world) }) {
                section += "  - name: \(Self.quoted(bridge.name))\n    origins: []\n"
                if bridge.world != "page" { section += "    world: \(Self.quoted(bridge.world))\n" }
                if bridge.reply { section += "    reply: true\n" }
                warnings.append("bridge '\(bridge.name)': origins left empty; list the hosts whose pages may call it")
            }
            sections.append(section)
        }

        // webview: the settings the code writes as literals in release builds. Code that sets
        // one both ways is a conflict the team decides; the draft says where.
        var settings: [String] = []
        func literal(_ keys: [AppFact.SettingKey], name: String) -> Bool? {
            let written = keys.flatMap { subject.settings($0) }.filter { $0.fact.site.inRelease && !$0.fact.site.inPreview && !$0.setting.onCopy }
            let values = Set(written.compactMap { $0.setting.value.boolValue })
            guard values.count > 1 else { return values.first }
            let places = written.map { "\($0.fact.site.location.path):\($0.fact.site.location.range.start.line)" }
            warnings.append("the code sets \(name) both true and false (\(places.joined(separator: ", "))): the draft says true; audit reports the other places until the code agrees")
            return true
        }
        if let javaScript = literal([.allowsContentJavaScript, .javaScriptEnabled], name: "JavaScript") { settings.append("  javascript: \(javaScript)") }
        if let windows = literal([.javaScriptCanOpenWindowsAutomatically], name: "javaScriptCanOpenWindowsAutomatically") { settings.append("  javascript-can-open-windows: \(windows)") }
        let inspectable = literal([.inspectable], name: "isInspectable") ?? false
        settings.append("  inspectable: \(inspectable)")
        let folders = subject.facts().compactMap { fact -> String? in
            guard case .load(let load) = fact.kind, load.api == .loadFileURL || load.api == .loadFileRequest else { return nil }
            return load.base.text
        }
        if !folders.isEmpty {
            warnings.append("the app loads file URLs (\(folders.count)); webview.file-access is left at none: name the bundle folder the pages may read")
        }
        sections.append("# From the settings the code writes; the rest keep the platform's defaults.\nwebview:\n" + settings.joined(separator: "\n") + "\n")

        // app-bound-domains: WKAppBoundDomains, and the limit the code sets. With bridges, WebKit
        // hides every handler unless navigations are limited: the draft limits them, and says
        // where the code does not.
        let appBound = plists.compactMap(\.appBoundDomains).flatMap(\.domains).map { $0.value.lowercased() }.filter { !InfoPlist.isPlaceholder($0) }
        if !appBound.isEmpty {
            var unique: [String] = []
            for domain in appBound where !unique.contains(domain) { unique.append(domain) }
            var section = "# From WKAppBoundDomains in the Info.plist.\napp-bound-domains:\n  domains: [\(unique.map(Self.quoted).joined(separator: ", "))]\n"
            var limit = literal([.limitsNavigationsToAppBoundDomains], name: "limitsNavigationsToAppBoundDomains")
            if limit != true, !bridges.isEmpty {
                let places = subject.settings(.limitsNavigationsToAppBoundDomains).filter { $0.fact.site.inRelease }.map { "\($0.fact.site.location.path):\($0.fact.site.location.range.start.line)" }
                warnings.append("WKAppBoundDomains is set and the app has message handlers, which WebKit hides unless navigations are limited: the draft says limit-navigations: true" + (places.isEmpty ? "" : "; the code says otherwise at \(places.joined(separator: ", "))"))
                limit = true
            }
            if let limit { section += "  limit-navigations: \(limit)\n" }
            sections.append(section)
        }

        // target: the app's deployment target, raised where a drafted key needs more.
        var target = inventory.deploymentTarget
        if inspectable, target.map({ OSVersion(parsing: $0).map { $0 < OSVersion(16, 4) } ?? true }) ?? true {
            warnings.append("inspectable: true needs iOS 16.4 (isInspectable): the draft's target says 16.4" + (target.map { "; the app's project says \($0)" } ?? ""))
            target = "16.4"
        }
        let targetLine = target.map { "target: { ios: \(Self.quoted($0)) }\n" } ?? ""

        yaml = """
        # Drafted by `webpolicy init --from-app` from what the app's code, Info.plists and
        # storyboards do today. Review every section: this is what the app does, not yet what
        # it should. `webpolicy audit --policy THIS-FILE` keeps the two together from now on.
        webpolicy: 1
        name: \(Self.quoted(name))
        \(targetLine)
        """ + sections.joined(separator: "\n")
        self.warnings = warnings
    }

    static func handlerName(_ written: String?) -> String {
        guard let written, !written.isEmpty else { return "the app's scheme handler" }
        return written
    }

    static func isHost(_ value: String) -> Bool {
        !value.isEmpty && value.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" } && !value.hasPrefix(".") && !value.hasSuffix(".")
    }

    static func isScheme(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return value.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "." }
    }

    /// A YAML scalar in double quotes, escaped.
    static func quoted(_ value: String) -> String {
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }
}
