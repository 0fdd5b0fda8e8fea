// The delegates an app writes (docs/runtime.md), with WebKit's callbacks arriving as JSON
// lines on standard input, for the real-WebKit navigation lane: WebKitGTK's `decide-policy`
// and `create` signals and its load events are what the app's WKNavigationDelegate and
// WKUIDelegate get on iOS, so the decisions WebKit then carries out are the runtime's own.
//
// usage: webpolicy-navigation-probe COMPILED_DIR   (the folder `webpolicy compile --output` wrote)
//
// Each input line is one callback, answered by one output line:
//   {"event": "started"} / {"event": "ended"}            → {"ok": true}
//     didStartProvisionalNavigation / didCommit, didFailProvisionalNavigation
//   {"event": "navigation", "url", "navigationType", "isMainFrame", "currentPage"}
//     decidePolicyFor: → {"decision": "allow" | "cancel" | "cancel-and-open", "initiator", "reason"?, "opened": [URL]}
//   {"event": "new-window", "url", "navigationType", "currentPage"}
//     createWebViewWith: → {"decision": "load-in-same-view" | "open-externally" | "refuse", "initiator", ...}
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

func reply(_ object: [String: Any]) {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("webpolicy-navigation-probe: \(message)\n".utf8))
    exit(2)
}

@MainActor func run() {
    guard CommandLine.arguments.count == 2 else { fail("usage: webpolicy-navigation-probe COMPILED_DIR") }
    let policy: RuntimePolicy
    do {
        policy = try RuntimePolicy(compiledDirectory: URL(fileURLWithPath: CommandLine.arguments[1]))
    } catch {
        fail("\(error)")
    }
    let opened = Opened()
    let navigations = NavigationDecider(policy: policy, opener: opened)
    let windows = WindowDecider(policy: policy, opener: opened)
    while let line = readLine() {
        guard let event = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any], let kind = event["event"] as? String else {
            fail("not a JSON event: \(line)")
        }
        let url = event["url"] as? String ?? ""
        let type = event["navigationType"] as? Int ?? -1
        let currentPage = event["currentPage"] as? String
        switch kind {
        case "started":
            navigations.redirects.navigationStarted()
            reply(["ok": true])
        case "ended":
            navigations.redirects.navigationEnded()
            reply(["ok": true])
        case "navigation":
            let isMainFrame = event["isMainFrame"] as? Bool ?? true
            let initiator = navigations.redirects.initiator(navigationTypeRawValue: type, isMainFrame: isMainFrame)
            var answer: [String: Any] = ["initiator": initiator.rawValue]
            switch navigations.decide(url: url, isMainFrame: isMainFrame, currentPage: currentPage, initiator: initiator) {
            case .allow: answer["decision"] = "allow"
            case .cancel(let reason): answer["decision"] = "cancel"; answer["reason"] = reason
            case .cancelAndOpen: answer["decision"] = "cancel-and-open"
            }
            answer["opened"] = opened.take()  // what the system was asked to open
            reply(answer)
        case "new-window":
            let initiator = NavigationInitiator(navigationTypeRawValue: type)
            var answer: [String: Any] = ["initiator": initiator.rawValue]
            switch windows.decide(url: url, currentPage: currentPage, initiator: initiator) {
            case .loadInSameView(let target): answer["decision"] = "load-in-same-view"; answer["url"] = target
            case .openExternally: answer["decision"] = "open-externally"
            case .refuse(let reason): answer["decision"] = "refuse"; answer["reason"] = reason
            }
            answer["opened"] = opened.take()  // what the system was asked to open
            reply(answer)
        default:
            fail("unknown event '\(kind)'")
        }
    }
}

run()
