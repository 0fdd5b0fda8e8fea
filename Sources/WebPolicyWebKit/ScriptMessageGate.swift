import WebPolicyRuntime

/// The sending frame's security origin, as `WKScriptMessage.frameInfo.securityOrigin` gives it
/// (`protocol`, `host`, `port`; a port of 0 is the scheme's default).
public struct FrameOrigin: Sendable, Equatable {
    public var scheme: String
    public var host: String
    public var port: Int

    public init(scheme: String, host: String, port: Int = 0) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// `scheme://host[:port]`, what the policy's engine parses.
    public var url: String { "\(scheme)://\(host)" + (port > 0 ? ":\(port)" : "") }
}

/// A script message as the app's handler receives it, without WebKit: `WKScriptMessage`'s
/// name, body, frame and world.
public struct ReceivedMessage {
    public var name: String
    /// The posted value, bridged as WebKit bridges it (dictionaries, arrays, strings, numbers).
    public var body: Any
    public var origin: FrameOrigin
    public var isMainFrame: Bool
    public var world: ContentWorldName

    public init(name: String, body: Any, origin: FrameOrigin, isMainFrame: Bool, world: ContentWorldName) {
        self.name = name
        self.body = body
        self.origin = origin
        self.isMainFrame = isMainFrame
        self.world = world
    }
}

/// Where handlers go: `WKUserContentController` in an app (`add(_:contentWorld:name:)`,
/// `addScriptMessageHandler(_:contentWorld:name:)`), a fake in tests.
@MainActor
public protocol MessageHandlerRegistry: AnyObject {
    func addHandler(named name: String, in world: ContentWorldName, receive: @escaping @MainActor @Sendable (ReceivedMessage) -> Void)
    /// `reply(value, nil)` answers the posting script's promise; `reply(nil, message)` rejects it.
    func addReplyHandler(named name: String, in world: ContentWorldName,
                         receive: @escaping @MainActor @Sendable (ReceivedMessage, @escaping @MainActor @Sendable (Any?, String?) -> Void) -> Void)
}

/// Why the gate would not register a handler.
public enum ScriptMessageGateError: Error, Equatable, CustomStringConvertible {
    /// The policy declares no bridge of that name: the app would expose a handler no review saw.
    case undeclared(String, declared: [String])
    /// The bridge says `reply: true` and the app registers a plain handler, or the other way.
    case replyMismatch(String, declaredReply: Bool)

    public var description: String {
        switch self {
        case .undeclared(let name, let declared):
            return "the policy declares no bridge '\(name)'" + (declared.isEmpty ? "" : " (its bridges: \(declared.joined(separator: ", ")))") + ": declare it under bridges: before the app registers it"
        case .replyMismatch(let name, let declaredReply):
            return declaredReply ? "bridge '\(name)' is declared with reply: true: register it with registerWithReply" : "bridge '\(name)' is declared without reply: register it with register, or declare reply: true"
        }
    }
}

/// The app registers its message handlers through the gate, never on the user content
/// controller itself (OWASP MASTG-TEST-0078: a handler answers every frame that can reach it).
/// Each is added only in the content world its bridge declares, and every message is decided
/// by the policy (`RuntimePolicy.decideMessage`, as simulate decides a `message` line) before
/// the app's code runs: a refused one never reaches it, and a refused reply is rejected with
/// the reason. One gate per user content controller.
@MainActor
public final class ScriptMessageGate {
    public let policy: RuntimePolicy
    /// Told of each message the policy refused (for the app's logs), with the reason.
    public var onRefused: ((ReceivedMessage, String) -> Void)?

    public init(policy: RuntimePolicy, onRefused: ((ReceivedMessage, String) -> Void)? = nil) {
        self.policy = policy
        self.onRefused = onRefused
    }

    /// Adds `handler` under `name`, in each world a bridge of that name declares.
    public func register(_ handler: @escaping @MainActor @Sendable (ReceivedMessage) -> Void, as name: String, in registry: MessageHandlerRegistry) throws(ScriptMessageGateError) {
        for bridge in try bridges(named: name, reply: false) {
            registry.addHandler(named: name, in: bridge.world) { [weak self] message in
                guard let self, self.admits(message) else { return }
                handler(message)
            }
        }
    }

    /// Adds a handler whose answer goes back to the posting script (`reply: true`).
    public func registerWithReply(_ handler: @escaping @MainActor @Sendable (ReceivedMessage, @escaping @MainActor @Sendable (Any?, String?) -> Void) -> Void,
                                  as name: String, in registry: MessageHandlerRegistry) throws(ScriptMessageGateError) {
        for bridge in try bridges(named: name, reply: true) {
            registry.addReplyHandler(named: name, in: bridge.world) { [weak self] message, reply in
                guard let self else { return reply(nil, "the web view's message gate is gone") }
                let decision = self.decision(for: message)
                guard decision.verdict == .allow else {
                    self.onRefused?(message, decision.reason)
                    return reply(nil, "refused by the app's policy")
                }
                handler(message, reply)
            }
        }
    }

    private func bridges(named name: String, reply: Bool) throws(ScriptMessageGateError) -> [Bridge] {
        let bridges = policy.manifest.bridges.filter { $0.name == name }
        guard !bridges.isEmpty else {
            var names: [String] = []
            for bridge in policy.manifest.bridges where !names.contains(bridge.name) { names.append(bridge.name) }
            throw .undeclared(name, declared: names)
        }
        if let mismatch = bridges.first(where: { $0.reply != reply }) { throw .replyMismatch(name, declaredReply: mismatch.reply) }
        return bridges
    }

    private func decision(for message: ReceivedMessage) -> RuntimeDecision {
        policy.decideMessage(frameOrigin: message.origin.url, isMainFrame: message.isMainFrame, handler: message.name, world: message.world)
    }

    private func admits(_ message: ReceivedMessage) -> Bool {
        let decision = decision(for: message)
        if decision.verdict != .allow { onRefused?(message, decision.reason) }
        return decision.verdict == .allow
    }
}
