/// The step that decides a script message (docs/semantics.md, "Messages"): whether the app's
/// handler may see it. First what WebKit itself withholds — the page's scripts when JavaScript
/// is off, every handler under App-Bound Domains without `limit-navigations`, handlers of
/// another content world — then what the bridge admits: its frames and its origins.
struct MessageGate: Sendable {
    let bridges: [Bridge]
    let webView: WebViewSettings?
    let appBound: AppBoundDomains?
    /// What WebKit keeps of each `appBound` entry (`AppBoundDomains.boundValues`).
    let bound: [String?]

    init(bridges: [Bridge], webView: WebViewSettings?, appBound: AppBoundDomains?, suffixes: PublicSuffixList) {
        self.bridges = bridges
        self.webView = webView
        self.appBound = appBound
        bound = appBound?.boundValues(suffixes) ?? []
    }

    struct Outcome {
        var admitted: Bool
        var why: Why
        /// The bridge or setting that decided, for reasons and coverage.
        var location: SourceLocation?
        /// The bridge that admitted it, and which of its origins.
        var bridge: Int?
        var origin: Int?
    }

    func decide(_ message: ScriptMessage, bindings: HostBindings, domain: (String) -> String) -> Outcome {
        let url = message.frameURL
        // The port too: a role is its bound origin, port and all.
        let origin = url.scheme + "://" + (url.host ?? "") + (url.port.map { ":\($0)" } ?? "")
        // `allowsContentJavaScript = false` stops every script the page brings ("JavaScript
        // code referenced by the web content", Apple's documentation); the app's user
        // scripts still run, in their own world.
        if let webView, !webView.javaScript, message.world == .page {
            let at = webView.javaScriptLocation ?? webView.location
            return Outcome(admitted: false, why: .messageJavaScriptOff(at: at), location: at)
        }
        // WebKit hides `window.webkit.messageHandlers` from a frame whose page is not
        // app-bound (`WebKitNamespace::messageHandlers` returns null when
        // `shouldEnableInAppBrowserPrivacyProtections`), and without `limit-navigations`
        // no page is (`WebPageProxy::setIsNavigatingToAppBoundDomainAndCheckIfPermitted`
        // marks every navigation not app-bound).
        if let appBound {
            if !appBound.limitNavigations {
                return Outcome(admitted: false, why: .messageAppBoundHidden(host: nil, at: appBound.location), location: appBound.location)
            }
            if AppBoundDomains.check(url, bound: bound, domain: domain) == .unbound {
                return Outcome(admitted: false, why: .messageAppBoundHidden(host: url.host ?? origin, at: appBound.location), location: appBound.location)
            }
        }
        let named = bridges.indices.filter { bridges[$0].name == message.handler }
        guard !named.isEmpty else {
            var names: [String] = []
            for bridge in bridges where !names.contains(bridge.name) { names.append(bridge.name) }
            return Outcome(admitted: false, why: .messageNoHandler(message.handler, declared: names), location: nil)
        }
        // A handler is added in one content world; scripts of another world do not see it.
        guard let index = named.first(where: { bridges[$0].world == message.world }) else {
            let first = bridges[named[0]]
            return Outcome(admitted: false, why: .messageWrongWorld(message.handler, world: message.world.name, declared: named.map { bridges[$0].world.name }, at: first.location),
                           location: first.location)
        }
        let bridge = bridges[index]
        if bridge.frames == .main, message.frame == .child {
            let at = bridge.framesLocation ?? bridge.location
            return Outcome(admitted: false, why: .messageChildFrame(bridge.name, at: at), location: at)
        }
        guard let admitting = bridge.origins.firstIndex(where: { $0.admits(url, bindings: bindings) }) else {
            let at = bridge.originsLocation ?? bridge.location
            var unbound: [String] = []
            for role in bridge.origins.compactMap({ $0.host?.role }) where bindings[role] == nil && !unbound.contains(role) { unbound.append(role) }
            return Outcome(admitted: false, why: .messageOriginRefused(bridge.name, origin: origin, at: at, unbound: unbound), location: at)
        }
        let entry = bridge.origins[admitting]
        return Outcome(admitted: true, why: .messageAdmitted(bridge.name, origin: entry.described(in: bindings), at: entry.location ?? bridge.location),
                       location: bridge.location, bridge: index, origin: admitting)
    }
}
