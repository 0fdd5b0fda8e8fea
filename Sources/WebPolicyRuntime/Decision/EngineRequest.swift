/// What the decision engine decides: a load of the web view, or a script message posted to
/// one of the app's handlers. A message is not a load — no content rule, gate or cookie
/// applies to it, and it changes no page — so it is a request kind of its own, decided by its
/// own step (`MessageGate`).
public enum EngineRequest: Sendable {
    case load(LoadRequest)
    case message(ScriptMessage)
    /// The app binds a `runtime-hosts` role to the server it will use (a trace's `bind` line,
    /// `RuntimePolicy.bind`): no load either, but later requests see the binding.
    case bind(BindRequest)
    /// A page asks for the camera, the microphone or motion sensors (a trace's `permission`
    /// line, `RuntimePolicy.decidePermission`): no load, and nothing of the page changes.
    case permission(PermissionRequest)

    /// The load, when it is one.
    public var load: LoadRequest? {
        if case .load(let load) = self { return load }
        return nil
    }
}

extension WebViewState {
    /// The state after `request` got `decision`: a message changes nothing; a binding the
    /// policy accepts binds its role, and one it refuses leaves the role unbound (the app asked
    /// to leave the server it had: the old one is not trusted in its place).
    public mutating func advance(past request: EngineRequest, _ decision: Decision) {
        switch request {
        case .load(let load): advance(past: load, decision)
        case .message, .permission: break
        case .bind(let bind): bindings[bind.role] = decision.verdict == .allow ? decision.binding : nil
        }
    }
}
