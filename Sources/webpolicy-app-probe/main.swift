// The delegates an app writes (docs/runtime.md), with WebKit's callbacks arriving as JSON
// lines on standard input, for the real-WebKit conformance lanes: WebKitGTK's `decide-policy`
// and `create` signals, its load events and its script messages are what the app's
// WKNavigationDelegate, WKUIDelegate and message handlers get on iOS, so what WebKit then
// carries out — and what reaches the app's handler — is the runtime's own decision.
//
// usage: webpolicy-app-probe COMPILED_DIR   (the folder `webpolicy compile --output` wrote)
//
// Each input line is one callback, answered by one output line:
//   {"event": "load", "compiled": DIR}                     → {"ok": true}: another policy
//   {"event": "started"} / {"event": "ended"}            → {"ok": true}
//     didStartProvisionalNavigation / didCommit, didFailProvisionalNavigation
//   {"event": "navigation", "url", "navigationType", "isMainFrame", "currentPage"}
//     decidePolicyFor: → {"decision": "allow" | "cancel" | "cancel-and-open", "initiator", "reason"?, "opened": [URL]}
//   {"event": "new-window", "url", "navigationType", "currentPage"}
//     createWebViewWith: → {"decision": "load-in-same-view" | "open-externally" | "refuse", "initiator", ...}
//   {"event": "register", "handler"}
//     the app registers its handler through ScriptMessageGate → {"worlds": [...], "reply": bool} or {"error"}
//   {"event": "bind", "role", "url"}
//     the user chose a server: policy.bind(role, to: url) → {"bound": bool, "reason"}
//   {"event": "message", "handler", "world", "origin": {"scheme", "host", "port"}, "isMainFrame"}
//     WebKit delivers a message → {"delivered": bool (a handler of that name is in that world),
//     "heard": bool (the app's handler ran), "reason"?: why the gate refused it}
// `navigationType` is WKNavigationType's raw value.
import Foundation
import WebPolicyRuntime
import WebPolicyWebKit

final class Opened: ExternalOpener, @unchecked Sendable {
    private let lock = NSLock()
    private var urls: [String] = []
    func open(_ url: String) { lock.withLock { urls.append(url) } }
    func take() -> [String] { lock.withLock { defer { urls = [] }; return urls } }
}

/// The user content controller: the handlers the gate added, by name and world.
@MainActor
final class Registry: MessageHandlerRegistry {
    var handlers: [String: @MainActor @Sendable (ReceivedMessage) -> Void] = [:]
    var replyHandlers: [String: @MainActor @Sendable (ReceivedMessage, @escaping @MainActor @Sendable (Any?, String?) -> Void) -> Void] = [:]

    static func key(_ name: String, _ world: ContentWorldName) -> String { name + "\u{1}" + world.name }

    func addHandler(named name: String, in world: ContentWorldName, receive: @escaping @MainActor @Sendable (ReceivedMessage) -> Void) {
        handlers[Self.key(name, world)] = receive
    }

    func addReplyHandler(named name: String, in world: ContentWorldName,
                         receive: @escaping @MainActor @Sendable (ReceivedMessage, @escaping @MainActor @Sendable (Any?, String?) -> Void) -> Void) {
        replyHandlers[Self.key(name, world)] = receive
    }
}

func reply(_ object: [String: Any]) {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("webpolicy-app-probe: \(message)\n".utf8))
    exit(2)
}

/// One app: its policy, its delegates and its user content controller.
@MainActor
final class App {
    let opened = Opened()
    let navigations: NavigationDecider
    let windows: WindowDecider
    let gate: ScriptMessageGate
    let registry = Registry()
    /// Set by the app's handler when it runs; the gate's refusal reason when it does not.
    var heard = false
    var refusal: String?

    init(compiled: String) {
        let policy: RuntimePolicy
        do {
            policy = try RuntimePolicy(compiledDirectory: URL(fileURLWithPath: compiled))
        } catch {
            fail("\(error)")
        }
        navigations = NavigationDecider(policy: policy, opener: opened)
        windows = WindowDecider(policy: policy, opener: opened)
        gate = ScriptMessageGate(policy: policy)
        gate.onRefused = { [unowned self] _, reason in self.refusal = reason }
    }

    func register(_ name: String) -> [String: Any] {
        let reply = gate.policy.manifest.bridges.first { $0.name == name }?.reply ?? false
        do {
            if reply {
                try gate.registerWithReply({ [unowned self] _, answer in self.heard = true; answer("ok", nil) }, as: name, in: registry)
            } else {
                try gate.register({ [unowned self] _ in self.heard = true }, as: name, in: registry)
            }
        } catch {
            return ["error": error.description]
        }
        let worlds = gate.policy.manifest.bridges.filter { $0.name == name }.map(\.world.name)
        return ["worlds": worlds, "reply": reply]
    }

    func deliver(_ event: [String: Any]) -> [String: Any] {
        let name = event["handler"] as? String ?? ""
        let world = ContentWorldName(event["world"] as? String ?? "page")
        let origin = event["origin"] as? [String: Any] ?? [:]
        let message = ReceivedMessage(name: name, body: event["body"] ?? NSNull(),
                                      origin: FrameOrigin(scheme: origin["scheme"] as? String ?? "", host: origin["host"] as? String ?? "", port: origin["port"] as? Int ?? 0),
                                      isMainFrame: event["isMainFrame"] as? Bool ?? true, world: world)
        heard = false
        refusal = nil
        let key = Registry.key(name, world)
        if let handler = registry.handlers[key] {
            handler(message)
        } else if let handler = registry.replyHandlers[key] {
            handler(message) { _, error in if let error, self.refusal == nil { self.refusal = error } }
        } else {
            return ["delivered": false, "heard": false]
        }
        var answer: [String: Any] = ["delivered": true, "heard": heard]
        if let refusal { answer["reason"] = refusal }
        return answer
    }
}

@MainActor func run() {
    guard CommandLine.arguments.count == 2 else { fail("usage: webpolicy-app-probe COMPILED_DIR") }
    var app = App(compiled: CommandLine.arguments[1])
    while let line = readLine() {
        guard let event = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any], let kind = event["event"] as? String else {
            fail("not a JSON event: \(line)")
        }
        let url = event["url"] as? String ?? ""
        let type = event["navigationType"] as? Int ?? -1
        let currentPage = event["currentPage"] as? String
        switch kind {
        case "load":
            app = App(compiled: event["compiled"] as? String ?? "")
            reply(["ok": true])
        case "started":
            app.navigations.redirects.navigationStarted()
            reply(["ok": true])
        case "ended":
            app.navigations.redirects.navigationEnded()
            reply(["ok": true])
        case "navigation":
            let isMainFrame = event["isMainFrame"] as? Bool ?? true
            let initiator = app.navigations.redirects.initiator(navigationTypeRawValue: type, isMainFrame: isMainFrame)
            var answer: [String: Any] = ["initiator": initiator.rawValue]
            switch app.navigations.decide(url: url, isMainFrame: isMainFrame, currentPage: currentPage, initiator: initiator) {
            case .allow: answer["decision"] = "allow"
            case .cancel(let reason): answer["decision"] = "cancel"; answer["reason"] = reason
            case .cancelAndOpen: answer["decision"] = "cancel-and-open"
            }
            answer["opened"] = app.opened.take()  // what the system was asked to open
            reply(answer)
        case "new-window":
            let initiator = NavigationInitiator(navigationTypeRawValue: type)
            var answer: [String: Any] = ["initiator": initiator.rawValue]
            switch app.windows.decide(url: url, currentPage: currentPage, initiator: initiator) {
            case .loadInSameView(let target): answer["decision"] = "load-in-same-view"; answer["url"] = target
            case .openExternally: answer["decision"] = "open-externally"
            case .refuse(let reason): answer["decision"] = "refuse"; answer["reason"] = reason
            }
            answer["opened"] = app.opened.take()
            reply(answer)
        case "register":
            reply(app.register(event["handler"] as? String ?? ""))
        case "message":
            reply(app.deliver(event))
        case "bind":
            let decision = app.gate.policy.bind(event["role"] as? String ?? "", to: url)
            reply(["bound": decision.verdict == .allow, "reason": decision.reason])
        default:
            fail("unknown event '\(kind)'")
        }
    }
}

run()
