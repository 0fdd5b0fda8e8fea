import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// The draft of bridges: the message handlers the code adds, with who may call them as far as the
/// code shows.
extension PolicyDraft.Builder {
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
        // Schemes the app serves itself: pages on them are the app's own, whatever their host.
        let ownSchemes = Set(subject.schemeHandlers.compactMap { fact, handler in
            fact.site.inRelease ? handler.scheme?.stringValue?.lowercased() : nil
        }.filter { WebKitSchemes.acceptsHandler(for: $0) && PolicyDraft.isScheme($0) }).sorted()
        let appBound = plists.contains { !($0.appBoundDomains?.domains ?? []).isEmpty }
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
                if origins.isEmpty && appBound {
                    // App-Bound Domains fix the callers in Info.plist: no role can be among them.
                    note = "the code's gate (\(Self.place(site))) admits \(what) of origins it works out at run time; list those hosts, within the app-bound domains"
                } else if origins.isEmpty {
                    // Hosts the code learns at run time: a role the app binds, not a guess.
                    origins = ["${\(Self.runtimeRole)}"]
                    runtimeRoleGates.append(Self.place(site))
                    note = "the code's gate (\(Self.place(site))) admits \(what) of origins it works out at run time: the draft names them by the role ${\(Self.runtimeRole)} (runtime-hosts), which the app binds to the server it uses"
                } else {
                    note = "from the code's gate (\(Self.place(site))), which admits \(what)"
                    isDecision = false
                }
            } else {
                let handler = gate.map { " (\(Self.place($0.2)) reads no frameInfo)" } ?? ""
                note = "every page the view shows, in every frame, can call it today\(handler); list the hosts whose pages may"
                    + (usesRuntime ? "" : ", and check them in the handler or register it with the runtime's ScriptMessageGate")
                    + (ownSchemes.isEmpty ? "" : " — or, for pages the app serves itself only: origins: [\"*\"] with schemes: [\(ownSchemes.joined(separator: ", "))]")
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
}
