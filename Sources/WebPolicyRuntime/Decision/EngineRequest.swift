/// What the decision engine decides: a load of the web view, or a script message posted to
/// one of the app's handlers. A message is not a load — no content rule, gate or cookie
/// applies to it, and it changes no page — so it is a request kind of its own, decided by its
/// own step (`MessageGate`).
public enum EngineRequest: Sendable {
    case load(LoadRequest)
    case message(ScriptMessage)

    /// The load, when it is one.
    public var load: LoadRequest? {
        if case .load(let load) = self { return load }
        return nil
    }
}

extension WebViewState {
    /// The state after `request` got `decision`: a message changes nothing.
    public mutating func advance(past request: EngineRequest, _ decision: Decision) {
        if case .load(let load) = request { advance(past: load, decision) }
    }
}
