// Decisions on several threads while another binds, rebinds and unbinds the server the user
// chooses — what an app does when the user switches servers while pages load — built with
// `swift build --sanitize=thread` by `.ci/run`, so that a data race in the runtime's bindings
// (or anything a decision reads) fails CI. The runtime alone, as an app links it.
//
// usage: webpolicy-race-check [ROUNDS]
//        webpolicy-race-check --unsynchronised   (a race on purpose: CI requires the sanitizer to stop it)
import Foundation
import WebPolicyRuntime

/// A counter two threads write without a lock: the sanitizer must report it, or it is not on.
final class Unsynchronised: @unchecked Sendable { var count = 0 }
if CommandLine.arguments.dropFirst().first == "--unsynchronised" {
    let shared = Unsynchronised()
    // Two threads of our own: `concurrentPerform` may run both iterations on the calling thread
    // (it did on a busy CI machine), and then there is no race to report.
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<2 {
        Thread {
            for _ in 0..<10_000 { shared.count += 1 }
            done.signal()
        }.start()
    }
    done.wait()
    done.wait()
    print("webpolicy-race-check: two threads wrote one counter without a lock (\(shared.count))")
    exit(0)
}

/// A dashboard app: pages, a bridge, the http allowlist and a cookie of `${server}`, which may
/// use https, or plain http on the local network.
func dashboard() throws -> RuntimePolicy {
    var manifest = Manifest(policyName: "dashboard", targetIOS: "16.0", distribution: "app-store")
    manifest.runtimeHosts = [RuntimeHost(name: "server", schemes: ["https", "http"], http: .localNetwork)]
    let server = HostScope(pattern: "${server}")
    manifest.navigation = NavigationRules(pages: [NavigationRules.Entry(host: server, schemes: ["https", "http"])])
    manifest.bridges = [Bridge(name: "externalBus", origins: [Bridge.Origin(host: server, schemes: ["https", "http"])])]
    manifest.httpAllowlist = [Manifest.HTTPAllowlistEntry(host: server)]
    return try RuntimePolicy(manifest: Data(manifest.serialized().utf8), contentRuleLists: [])
}

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 20_000 : 20_000
let servers = ["https://ha.example.com", "http://homeassistant.local:8123", "http://192.168.1.20:8123"]
let policy: RuntimePolicy
do {
    policy = try dashboard()
} catch {
    FileHandle.standardError.write(Data("webpolicy-race-check: \(error)\n".utf8))
    exit(2)
}

let wrong = Counter()
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private(set) var first: String?
    func add(_ what: String) { lock.withLock { count += 1; if first == nil { first = what } } }
    var value: Int { lock.withLock { count } }
}

// One thread is the app's settings screen; three are web views deciding loads and messages.
DispatchQueue.concurrentPerform(iterations: 4) { lane in
    if lane == 0 {
        for round in 0..<rounds {
            if round % 7 == 6 { policy.unbind("server") } else { policy.bind("server", to: servers[round % servers.count]) }
            if round % 11 == 10 { policy.bind("server", to: "http://dash.example.net") }  // refused: unbinds
        }
        return
    }
    let session = policy.makeSession()
    for round in 0..<rounds {
        let server = servers[(round + lane) % servers.count]
        // Whatever is bound at the moment, a stranger is never admitted; the sanitizer judges
        // the rest (a page's verdict depends on the binding of that instant).
        _ = session.evaluate(RuntimeRequest(url: server + "/lovelace/0", type: "page", initiator: .app))
        _ = policy.evaluate(RuntimeRequest(url: server + "/frontend_latest/app.js", type: "script", mainDocumentURL: server + "/lovelace/0"))
        if policy.allowsMessage(frameOrigin: "https://evil.example.net", isMainFrame: true, handler: "externalBus") { wrong.add("a stranger's message was admitted") }
        if session.evaluate(RuntimeRequest(url: "http://dash.example.net/", type: "page", initiator: .app)).verdict != .block { wrong.add("a public http page was admitted") }
        _ = policy.allowsHTTPRequest(server + "/api/states")
    }
}
if wrong.value > 0 {
    FileHandle.standardError.write(Data("webpolicy-race-check: \(wrong.value) wrong decisions, the first: \(wrong.first ?? "")\n".utf8))
    exit(1)
}
print("webpolicy-race-check: \(rounds) rounds on 4 threads, bindings changed \(rounds) times, no wrong decision")
