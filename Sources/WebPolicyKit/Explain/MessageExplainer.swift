import WebPolicyRuntime

/// `webpolicy explain --type message`: one script message through the message step — what
/// WebKit withholds (JavaScript off, App-Bound Domains, another content world), then the
/// bridge's frames and origins. The decision is the engine's (`DecisionEngine.decide(_:)` for
/// a message, as simulate and the runtime's message gate decide); this only describes it.
extension Explainer {
    public func explainMessage(url text: String, handler: String, frame: MessageFrame, world: ContentWorldName) throws(InputError) -> (text: String, verdict: Verdict) {
        let url: CanonicalURL
        switch CanonicalURL.parse(text) {
        case .success(let parsed): url = parsed
        case .failure(let error): throw InputError("the URL '\(text)' is not a URL: \(error.message)")
        }
        let message = ScriptMessage(frameURL: url, frame: frame, handler: handler, world: world)
        let engine = build.engine(publicSuffixList: suffixes, engineCache: engineCache)
        var scratch = engine.makeScratch()
        let decision = engine.decide(message, bindings: bindings, scratch: &scratch)

        var out = "message \(url.description) handler=\(handler)\n"
        out += "  posted from \(frame == .main ? "the main frame" : "an iframe") (origin \(url.scheme)://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")), in the \(world.name) world\n"
        out += boundRoles + "\n"
        // The steps before the one that decided passed; that one says why; the rest are not reached.
        let steps: [(name: String, passed: () -> String)] = [
            ("JavaScript", { javaScriptStep(world) }),
            ("App-Bound Domains", { appBoundStep() }),
            ("handler", { handlerStep(message) }),
            ("frames", { framesStep(message) }),
            ("origins", { "" }),
        ]
        let deciding = Self.decidingStep(decision.why)
        for index in 0..<deciding { out += "M\(index + 1). \(steps[index].name): \(steps[index].passed())\n" }
        out += "M\(deciding + 1). \(steps[deciding].name): \(decision.why.text)\n"
        switch steps.count - deciding - 1 {
        case 0: break
        case 1: out += "M\(steps.count). not reached\n"
        default: out += "M\(deciding + 2)-M\(steps.count). not reached\n"
        }
        out += "\nverdict: \(decision.verdict.rawValue)\n  why: \(decision.reason)\n"
        return (out, decision.verdict)
    }

    /// Which step (0-based) refused the message; the last one admits it.
    private static func decidingStep(_ why: Why) -> Int {
        switch why {
        case .messageJavaScriptOff: return 0
        case .messageAppBoundHidden: return 1
        case .messageNoHandler, .messageWrongWorld: return 2
        case .messageChildFrame: return 3
        default: return 4
        }
    }

    private func javaScriptStep(_ world: ContentWorldName) -> String {
        guard let setting = policy.webView?.javaScript, !setting.value else { return "on: the page's scripts run" }
        return "off (\(setting.location.described)), but the \(world.name) world is the app's own: its scripts run"
    }

    private func appBoundStep() -> String {
        guard let section = policy.appBoundDomains else { return "none declared: WebKit shows the handlers to every frame" }
        return "limit-navigations is on (\(section.limitNavigations?.location.described ?? section.location.described)), and the frame is in an app-bound domain"
    }

    private func handlerStep(_ message: ScriptMessage) -> String {
        guard let bridge = policy.bridges.first(where: { $0.name.value == message.handler && $0.worldValue == message.world }) else { return "" }
        return "bridge '\(bridge.name.value)' (\(bridge.location.described)), added in the \(bridge.worldValue.name) world" + (bridge.replyValue ? ", with replies" : "")
    }

    private func framesStep(_ message: ScriptMessage) -> String {
        guard let bridge = policy.bridges.first(where: { $0.name.value == message.handler && $0.worldValue == message.world }) else { return "" }
        return bridge.framesValue == .all ? "all: iframes may call it too" : "main: the main frame posted it"
    }
}
