import WebPolicyKit
import WebPolicyRuntime

/// The inventory as a section of the audit's HTML page: what the app does with its web views,
/// each at file:line — the picture a reviewer reads before the findings make sense (MASTG's
/// "identify WebView usage").
public enum InventoryHTML {
    public static func sections(_ inventory: AppInventory) -> [HTMLSection] {
        var views: [[String]] = [], bridges: [[String]] = [], schemes: [[String]] = [], settings: [[String]] = []
        var loads: [[String]] = [], scripts: [[String]] = [], handOffs: [[String]] = [], delegates: [[String]] = [], apis: [[String]] = []
        for fact in inventory.facts where fact.site.compiled != .never {
            let place = place(fact.site)
            switch fact.kind {
            case .webView(let view):
                let how = [view.interfaceBuilder ? "Interface Builder" : nil, view.forNewWindow ? "a new window" : nil].compactMap { $0 }.joined(separator: ", ")
                views.append([view.className, view.configuration ?? "", view.managed ? "yes" : "no", how, place])
            case .messageHandler(let handler):
                bridges.append([handler.name.stringValue ?? handler.name.quoted, handler.worldName ?? handler.world?.quoted ?? "page", handler.reply ? "yes" : "no",
                                handler.throughGate ? "the runtime's gate" : (handler.handlerClass ?? ""), place])
            case .schemeHandler(let handler):
                schemes.append([handler.scheme?.stringValue ?? handler.scheme?.quoted ?? "every intercepted scheme (SchemeHandlerPlan)", handler.handler ?? "", place])
            case .setting(let setting):
                settings.append([setting.target, setting.value.quoted, setting.condition?.text ?? "", place])
            case .load(let load):
                loads.append([load.api.rawValue, load.content.quoted, load.base.quoted, place])
            case .script(let script):
                let spliced = (script.splices ?? []).map { splice in
                    "\(splice.expression): " + Set(splice.origins.map(\.kind.rawValue)).sorted().joined(separator: ", ")
                }.joined(separator: "; ")
                scripts.append([script.api, spliced.isEmpty ? script.script.quoted : spliced, place])
            case .handOff(let handOff):
                let opens = handOff.openSite.map { "\($0.path):\($0.range.start.line)" } ?? ""
                handOffs.append([handOff.trigger.rawValue, String(handOff.schemes.phrase.dropFirst("of ".count)), opens, place])
            case .delegate(let method):
                var shows: [String] = []
                if method.readsFrameInfo { shows.append("reads frameInfo") }
                if method.testsMainFrame { shows.append("tests the main frame") }
                if !method.comparedHosts.isEmpty { shows.append("compares " + method.comparedHosts.joined(separator: ", ")) }
                if method.grants { shows.append(method.readsRequester ? "grants after reading the origin" : "grants to every origin") }
                delegates.append([method.role.rawValue, shows.joined(separator: "; "), place])
            case .api(let use):
                apis.append([use.api.rawValue, use.detail?.quoted ?? "", use.receiver ?? "", place])
            }
        }
        let plists: [[String]] = inventory.plists.filter { !$0.isEntitlements }.map { plist in
            var ats: [String] = []
            if let security = plist.transportSecurity {
                if security.allowsArbitraryLoads?.value == true { ats.append("NSAllowsArbitraryLoads" + (security.arbitraryLoadsIgnored ? " (ignored)" : "")) }
                if security.allowsArbitraryLoadsInWebContent?.value == true { ats.append("NSAllowsArbitraryLoadsInWebContent") }
                if security.allowsLocalNetworking?.value == true { ats.append("NSAllowsLocalNetworking") }
                let insecure = security.exceptionDomains.filter { $0.allowsInsecureHTTPLoads?.value == true }.map(\.domain.value)
                if !insecure.isEmpty { ats.append("http to " + insecure.joined(separator: ", ")) }
            }
            return [plist.path, ats.joined(separator: "; "), (plist.queriesSchemes?.schemes.map(\.value) ?? []).joined(separator: ", "),
                    (plist.appBoundDomains?.domains.map(\.value) ?? []).joined(separator: ", "), plist.urlSchemes.map(\.value).joined(separator: ", ")]
        }
        let introduction = "What the app does with its web views, as read from its code, Info.plists and storyboards (release build; "
            + "\(inventory.lines) lines of code). The JSON form: webpolicy audit --inventory."
        return [HTMLSection(id: "inventory", title: "Inventory", introduction: introduction, tables: [
            .init(caption: "Web views", headers: ["Class", "Configuration", "Made by the runtime", "Built", "Where"], rows: views, codeColumns: [0, 1, 4]),
            .init(caption: "Script message handlers (bridges)", headers: ["Name", "World", "Reply", "Handler", "Where"], rows: bridges, codeColumns: [0, 3, 4]),
            .init(caption: "URL-scheme handlers", headers: ["Scheme", "Handler", "Where"], rows: schemes, codeColumns: [0, 1, 2]),
            .init(caption: "Settings", headers: ["Setting", "Value", "When", "Where"], rows: settings, codeColumns: [0, 1, 2, 3]),
            .init(caption: "Loads", headers: ["API", "Content", "Base URL or read access", "Where"], rows: loads, codeColumns: [1, 2, 3]),
            .init(caption: "Scripts built from values", headers: ["API", "Spliced values and their origins", "Where"], rows: scripts, codeColumns: [2]),
            .init(caption: "URLs handed to the system", headers: ["From", "Schemes", "Opened at", "Where"], rows: handOffs, codeColumns: [2, 3]),
            .init(caption: "Delegate methods that decide", headers: ["Method", "What the body shows", "Where"], rows: delegates, codeColumns: [2]),
            .init(caption: "Other WebKit API", headers: ["API", "Detail", "Called on", "Where"], rows: apis, codeColumns: [1, 2, 3]),
            .init(caption: "Info.plists", headers: ["File", "App Transport Security", "LSApplicationQueriesSchemes", "WKAppBoundDomains", "URL schemes"],
                  rows: plists, codeColumns: [0]),
        ])]
    }

    static func place(_ site: FactSite) -> String {
        let place = "\(site.location.path):\(site.location.range.start.line)"
        switch site.compiled {
        case .debugOnly: return place + " (debug builds)"
        case .unknown: return place + " (under an #if the audit cannot evaluate)"
        default: return site.inPreview ? place + " (#Preview)" : place
        }
    }
}
