import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// `webpolicy init --from-app`: a first policy written from what the app already does, so a
/// team adopting webpolicy on an existing app starts from its truth, not a blank page. It
/// describes without endorsing: where the code does something no policy should allow (an
/// inspectable release build, ATS off for every host, every scheme handed to the system), the
/// draft holds the safe value and a `# decide:` note with the lines; what the code cannot tell
/// (which origins may call a bridge) is a `# decide:` note with what the code does today. The
/// draft lints without errors, and `audit` under it reports only the lines its notes name.
public struct PolicyDraft {
    public var yaml: String
    /// What the team must decide, for standard error (the same notes are in the YAML).
    public var warnings: [String]

    public init(inventory: AppInventory, name: String) {
        var builder = Builder(inventory: inventory)
        var document = DraftDocument()
        document.header = [
            "Drafted by `webpolicy init --from-app` from what the app's code, Info.plists and storyboards do today. "
                + "Review every section, and every `decide:` note: where the code does what no policy should allow, "
                + "the draft says the safe thing and names the lines. `webpolicy audit --policy THIS-FILE` keeps the two together from now on.",
        ]
        document.add("webpolicy", .int(1))
        document.add("name", .string(name))
        builder.target(into: &document)
        builder.httpAllowlist(into: &document)
        builder.schemeAllowlist(into: &document)
        builder.interception(into: &document)
        builder.bridges(into: &document)
        builder.webView(into: &document)
        builder.appBoundDomains(into: &document)
        builder.otherHazards(into: &document)
        yaml = document.text
        warnings = builder.warnings
    }

    /// What each section is drafted from.
    private struct Builder {
        let inventory: AppInventory
        let subject: AuditSubject
        let plists: [InfoPlist]
        var warnings: [String] = []
        var bridgeCount = 0

        init(inventory: AppInventory) {
            self.inventory = inventory
            subject = AuditSubject(inventory: inventory, policy: nil)
            plists = inventory.plists.filter { !$0.isEntitlements }
        }

        /// A note for the team: on standard error, and as a comment in the draft.
        mutating func decide(_ text: String) -> String {
            warnings.append(text)
            return "decide: " + text
        }

        static func place(_ site: FactSite) -> String { "\(site.location.path):\(site.location.range.start.line)" }

        // MARK: target

        func target(into document: inout DraftDocument) {
            guard let target = inventory.deploymentTarget, let file = inventory.deploymentTargetFile else { return }
            let after = DeploymentTargetSource.allCases.filter { $0 > file.source }.map(\.name)
            let rank = after.isEmpty ? "" : " (\(file.source.withArticle) is read before " + SchemeScope.list(after.map { "the " + $0 }) + ")"
            document.add("target", .object([("ios", .string(target))]), comments: ["The deployment target, from \(file.path)\(rank)."])
        }

        // MARK: http-allowlist

        mutating func httpAllowlist(into document: inout DraftDocument) {
            var hosts: [(String, Bool, String)] = []
            for plist in plists {
                for exception in plist.transportSecurity?.exceptionDomains ?? [] where exception.allowsInsecureHTTPLoads?.value == true {
                    let domain = exception.domain.value.lowercased()
                    guard !["localhost", "127.0.0.1", "::1"].contains(domain), !InfoPlist.isPlaceholder(domain), PolicyDraft.isHost(domain),
                          !hosts.contains(where: { $0.0 == domain }) else { continue }
                    hosts.append((domain, exception.includesSubdomains, plist.path))
                }
            }
            var comments: [String] = []
            let arbitrary = plists.compactMap { plist -> String? in
                guard let security = plist.transportSecurity else { return nil }
                if let key = security.allowsArbitraryLoads, key.value, !security.arbitraryLoadsIgnored { return "NSAllowsArbitraryLoads in \(plist.path):\(key.location.range.start.line)" }
                if let key = security.allowsArbitraryLoadsInWebContent, key.value { return "NSAllowsArbitraryLoadsInWebContent in \(plist.path):\(key.location.range.start.line)" }
                return nil
            }
            if !arbitrary.isEmpty {
                let places = arbitrary.count > 3 ? arbitrary.prefix(2).joined(separator: ", ") + " and \(arbitrary.count - 2) more" : SchemeScope.list(arbitrary)
                comments.append(decide("App Transport Security is off for every host (\(places)). The draft allows plain http only to the hosts listed here; "
                    + "remove the key and merge the ATS fragment `webpolicy compile` writes, or keep it with a reason above it: <!-- webpolicy:disable-next-line ats-arbitrary-loads -- why -->"))
            }
            guard !hosts.isEmpty else {
                if !comments.isEmpty { document.add("http-allowlist", .array([]), comments: comments) }
                return
            }
            comments.insert("From NSExceptionAllowsInsecureHTTPLoads in the Info.plists.", at: 0)
            let items = hosts.sorted { $0.0 < $1.0 }.map { host, subdomains, path -> (comments: [String], value: JSONValue) in
                var fields: [(String, JSONValue)] = [("host", .string(host))]
                if subdomains { fields.append(("include-subdomains", .bool(true))) }
                fields.append(("reason", .string("allowed over plain http in \(path); say why")))
                return ([], .object(fields))
            }
            document.add("http-allowlist", items: items, comments: comments)
        }

        // MARK: scheme-allowlist

        /// The schemes the code itself hands to the system after testing them; never the
        /// schemes it only asks `canOpenURL` about.
        mutating func schemeAllowlist(into document: inout DraftDocument) {
            var opened: Set<String> = []
            var comments: [String] = []
            for fact in subject.facts() {
                guard case .handOff(let handOff) = fact.kind else { continue }
                switch handOff.schemes {
                case .only(let schemes): opened.formUnion(schemes.filter { $0 != "http" && $0 != "https" && PolicyDraft.isScheme($0) })
                case .any, .anyExcept:
                    comments.append(decide("\(Self.place(fact.site)) hands \(HandOffAnySchemeRule.phrase(handOff.trigger)) \(handOff.schemes.phrase) to the system: a page can open any app. "
                        + "List here the schemes pages may open, and open only those"))
                case .queried:
                    break
                }
            }
            let queried = Set(plists.flatMap { $0.queriesSchemes?.schemes ?? [] }.map { $0.value.lowercased() }).filter { !InfoPlist.isPlaceholder($0) }.subtracting(opened)
            if !queried.isEmpty {
                comments.append("LSApplicationQueriesSchemes asks canOpenURL about \(SchemeScope.list(queried.sorted())): the app's own questions, not schemes web pages may open, so none is listed for that.")
            }
            if opened.isEmpty {
                if !comments.isEmpty { document.add("scheme-allowlist", .array([]), comments: comments) }
                return
            }
            comments.insert("From the schemes the code tests before it hands a page's URL to the system.", at: 0)
            document.add("scheme-allowlist", items: opened.sorted().map { ([], .object([("scheme", .string($0))])) }, comments: comments)
        }

        // MARK: interception

        mutating func interception(into document: inout DraftDocument) {
            var intercepted: [String: String] = [:]
            for (fact, handler) in subject.schemeHandlers where fact.site.inRelease {
                guard let scheme = handler.scheme?.stringValue?.lowercased(), WebKitSchemes.acceptsHandler(for: scheme), PolicyDraft.isScheme(scheme) else {
                    if let scheme = handler.scheme, scheme.stringValue == nil {
                        warnings.append("\(Self.place(fact.site)): a scheme handler is registered for \(scheme.quoted), which the source does not spell out: add its interception entry by hand")
                    }
                    continue
                }
                intercepted[scheme] = intercepted[scheme] ?? PolicyDraft.handlerName(handler.handler)
            }
            let items = intercepted.sorted { $0.key < $1.key }.map { scheme, handler -> (comments: [String], value: JSONValue) in
                ([], .object([("scheme", .string(scheme)), ("handler", .string(handler))]))
            }
            document.add("interception", items: items, comments: ["From setURLSchemeHandler(_:forURLScheme:): the app's own handlers answer these."])
        }

        // MARK: bridges

        /// Each handler the source names, with what its own gate shows: the main frame, the
        /// hosts it compares the sender with. Origins are never guessed: where the code admits
        /// every page, the draft lists none and says so.
        mutating func bridges(into document: inout DraftDocument) {
            struct Bridge { var name: String, world: String, reply: Bool, handler: AppFact.MessageHandler, site: FactSite }
            var bridges: [Bridge] = []
            var unnamed: [String] = []
            for (fact, handler) in subject.messageHandlers where fact.site.inRelease {
                guard let name = handler.name.stringValue, !name.isEmpty else {
                    unnamed.append(decide("\(Self.place(fact.site)): a message handler is registered under \(handler.name.quoted), which the source does not spell out: declare its bridge by hand"))
                    continue
                }
                let world = handler.throughGate ? "page" : (handler.worldName ?? "page")
                guard !bridges.contains(where: { $0.name == name && $0.world == world }) else { continue }
                bridges.append(Bridge(name: name, world: world, reply: handler.reply, handler: handler, site: fact.site))
            }
            bridgeCount = bridges.count
            let usesRuntime = subject.messageHandlers.contains { $0.handler.throughGate }
            let gates = subject.facts().compactMap { fact -> (String, AppFact.DelegateMethod, FactSite)? in
                guard case .delegate(let method) = fact.kind, method.role == .receiveScriptMessage, let type = fact.site.enclosingType else { return nil }
                return (type, method, fact.site)
            }
            // What each bridge's gate shows; bridges behind the same gate share one note.
            var drafted: [(name: String, note: String, isDecision: Bool, value: JSONValue)] = []
            for bridge in bridges.sorted(by: { ($0.name, $0.world) < ($1.name, $1.world) }) {
                var fields: [(String, JSONValue)] = [("name", .string(bridge.name))]
                let gate = bridge.handler.handlerClass.flatMap { handlerClass in gates.first { $0.0 == handlerClass } }
                var origins: [String] = []
                let note: String
                var isDecision = true
                if bridge.handler.throughGate {
                    note = "list the hosts whose pages may call it; until then the runtime's gate refuses every message"
                } else if let (_, method, site) = gate, method.readsFrameInfo {
                    origins = method.comparedHosts
                    let checks = [method.testsMainFrame ? "the main frame" : nil, origins.isEmpty ? nil : "the hosts \(SchemeScope.list(origins))"].compactMap { $0 }
                    let what = checks.isEmpty ? "the sender's frame" : SchemeScope.list(checks)
                    if origins.isEmpty {
                        note = "the code's gate (\(Self.place(site))) admits \(what) of origins it works out at run time; list those hosts"
                    } else {
                        note = "from the code's gate (\(Self.place(site))), which admits \(what)"
                        isDecision = false
                    }
                } else {
                    let handler = gate.map { " (\(Self.place($0.2)) reads no frameInfo)" } ?? ""
                    note = "every page the view shows, in every frame, can call it today\(handler); list the hosts whose pages may"
                        + (usesRuntime ? "" : ", and check them in the handler or register it with the runtime's ScriptMessageGate")
                }
                fields.append(("origins", .array(origins.map(JSONValue.string))))
                if let (_, method, _) = gate, method.testsMainFrame { fields.append(("frames", .string("main"))) }
                if bridge.world != "page" { fields.append(("world", .string(bridge.world))) }
                if bridge.reply { fields.append(("reply", .bool(true))) }
                drafted.append((bridge.name, note, isDecision, .object(fields)))
            }
            var shared: [String] = ["From the app's script message handlers (\(bridges.count))."] + unnamed
            var sharedNotes: Set<String> = []
            for bridge in drafted where drafted.filter({ $0.note == bridge.note }).count > 1 && sharedNotes.insert(bridge.note).inserted {
                let names = SchemeScope.list(drafted.filter { $0.note == bridge.note }.map { "'\($0.name)'" })
                let note = bridge.note.replacingOccurrences(of: "can call it today", with: "can call them today")
                shared.append(bridge.isDecision ? decide("bridges \(names): \(note)") : "Bridges \(names): \(note).")
            }
            var items: [(comments: [String], value: JSONValue)] = []
            for bridge in drafted {
                let alone = !sharedNotes.contains(bridge.note)
                let comment = bridge.isDecision ? decide("bridge '\(bridge.name)': \(bridge.note)") : "Bridge '\(bridge.name)': \(bridge.note)."
                items.append((alone ? [comment] : [], bridge.value))
            }
            if items.isEmpty {
                if !unnamed.isEmpty { document.add("bridges", .array([]), comments: unnamed) }
            } else {
                document.add("bridges", items: items, comments: shared)
            }
        }

        // MARK: webview

        /// The settings the code writes as literals in release builds. Code that sets one both
        /// ways is a conflict the team decides; an inspectable release build is drafted as not
        /// inspectable, with the lines that say otherwise.
        mutating func webView(into document: inout DraftDocument) {
            var settings: [(String, JSONValue)] = []
            var comments: [String] = ["From the settings the code writes; the rest keep the platform's defaults."]
            // Every row of the catalogue the code writes, but inspectable (below); JavaScript
            // has a deprecated switch too.
            for row in WebViewSettingCatalogue.booleans where row.key != "inspectable" {
                guard let key = AppFact.SettingKey(row) else { continue }
                let keys = key == .allowsContentJavaScript ? [key, .javaScriptEnabled] : [key]
                guard let value = literal(keys, name: key == .allowsContentJavaScript ? "JavaScript" : row.swiftName) else { continue }
                if let hardened = row.hardened, value != hardened {
                    // A draft never endorses a weakened view: it keeps the safe value and asks.
                    let places = subject.settings(key).filter { $0.fact.site.inRelease && $0.setting.value.boolValue == value }.map { Self.place($0.fact.site) }
                    comments.append(decide("the code sets \(row.swiftName) to \(value) (\(SchemeScope.list(places))): the draft says \(row.key): \(hardened); "
                        + "write \(value) here if the team decides it ships so"))
                    settings.append((row.key, .bool(hardened)))
                } else {
                    settings.append((row.key, .bool(value)))
                }
            }
            // The lines the audit itself reports with no policy: run-time tests are evaluated
            // as it does (a test false in App Store builds is no hazard).
            var context = AuditRuleContext(rule: InspectableInReleaseRule.description, severity: .error)
            InspectableInReleaseRule().check(subject, &context)
            let inspectable = context.diagnostics.filter { $0.notes.allSatisfy { !$0.message.hasPrefix("in a #Preview") } }
            if !inspectable.isEmpty {
                let places = inspectable.map { "\($0.location.path):\($0.location.range.start.line)" }
                comments.append(decide("the code makes the web view inspectable in release builds (\(SchemeScope.list(places))): the draft says inspectable: false; "
                    + "set it under #if DEBUG, or write true here if the team decides it ships so"))
            }
            settings.append(("inspectable", .bool(false)))
            let fileLoads = subject.facts().compactMap { fact -> String? in
                guard case .load(let load) = fact.kind, load.api == .loadFileURL || load.api == .loadFileRequest else { return nil }
                return "\(Self.place(fact.site)) (read access to \(load.base.quoted))"
            }
            if !fileLoads.isEmpty {
                let places = fileLoads.count > 3 ? fileLoads.prefix(2).joined(separator: ", ") + " and \(fileLoads.count - 2) more" : SchemeScope.list(fileLoads)
                comments.append(decide("the app loads file URLs (\(places)); webview.file-access is left at none: name the folder, inside the app's bundle, the pages may read"))
            }
            document.add("webview", .object(settings), comments: comments)
        }

        mutating func literal(_ keys: [AppFact.SettingKey], name: String) -> Bool? {
            let written = keys.flatMap { subject.settings($0) }.filter { $0.fact.site.inRelease && !$0.fact.site.inPreview && !$0.setting.onCopy }
            let values = Set(written.compactMap { $0.setting.value.boolValue })
            guard values.count > 1 else { return values.first }
            let places = written.map { Self.place($0.fact.site) }
            warnings.append("the code sets \(name) both true and false (\(places.joined(separator: ", "))): the draft says true; audit reports the other places until the code agrees")
            return true
        }

        // MARK: hazards no section holds

        /// The release hazards the audit reports whatever the policy says (a permission granted
        /// to every origin, private API, scripts built from what the page chose): not policy
        /// values, so a note at the top with their lines, to fix or to suppress with a reason.
        mutating func otherHazards(into document: inout DraftDocument) {
            let rules: [any AuditRule.Type] = [PermissionGrantedToAnyOriginRule.self, PrivateKeyValueCodingRule.self, FileAccessKVCRule.self,
                                               PrivateWebKitAPIRule.self, UIWebViewRule.self, ScriptInterpolationRule.self, HTMLFileBaseURLRule.self]
            var found: [String] = []
            for rule in rules {
                var context = AuditRuleContext(rule: rule.description, severity: rule.description.defaultSeverity)
                rule.init().check(subject, &context)
                // A file: base URL is a warning with no policy and an error under the draft's
                // file-access: none, so it is listed whatever its severity here.
                let listed = rule == HTMLFileBaseURLRule.self ? context.diagnostics : context.diagnostics.filter { $0.severity == .error }
                found += listed.map { "\($0.location.path):\($0.location.start.line) [\($0.ruleID)]" }
            }
            guard !found.isEmpty else { return }
            let shown = found.count > 10 ? found.prefix(9).joined(separator: ", ") + " and \(found.count - 9) more" : SchemeScope.list(found)
            document.header.append(decide("release hazards no policy makes safe, which the audit reports whatever this file says: \(shown). "
                + "Fix each, or suppress it at its line with the reason (// webpolicy:disable-next-line RULE -- why)"))
        }

        // MARK: app-bound-domains

        /// `WKAppBoundDomains`, and the limit the code sets. With bridges, WebKit hides every
        /// handler unless navigations are limited: the draft limits them, and says where the
        /// code does not.
        mutating func appBoundDomains(into document: inout DraftDocument) {
            let appBound = plists.compactMap(\.appBoundDomains).flatMap(\.domains).map { $0.value.lowercased() }.filter { !InfoPlist.isPlaceholder($0) }
            guard !appBound.isEmpty else { return }
            var unique: [String] = []
            for domain in appBound where !unique.contains(domain) { unique.append(domain) }
            var fields: [(String, JSONValue)] = [("domains", .array(unique.map(JSONValue.string)))]
            var limit = literal([.limitsNavigationsToAppBoundDomains], name: "limitsNavigationsToAppBoundDomains")
            var comments = ["From WKAppBoundDomains in the Info.plist."]
            if limit != true, bridgeCount > 0 {
                let places = subject.settings(.limitsNavigationsToAppBoundDomains).filter { $0.fact.site.inRelease }.map { Self.place($0.fact.site) }
                comments.append(decide("WKAppBoundDomains is set and the app has message handlers, which WebKit hides unless navigations are limited: the draft says limit-navigations: true"
                    + (places.isEmpty ? "" : "; the code says otherwise at \(places.joined(separator: ", "))")))
                limit = true
            }
            if let limit { fields.append(("limit-navigations", .bool(limit))) }
            document.add("app-bound-domains", .object(fields), comments: comments)
        }
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
}
