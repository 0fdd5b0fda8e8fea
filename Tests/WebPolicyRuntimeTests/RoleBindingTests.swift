import Foundation
import Testing
import WebPolicyRuntime

/// `runtime-hosts` in the runtime: a role bound, rebound and unbound by the app, what a binding
/// may be, and decisions made while another thread rebinds.
@Suite("Hosts named by role in the runtime")
struct RoleBindingTests {
    /// A dashboard app: pages and a bridge of `${server}`, which may use https, or plain http
    /// on the local network.
    static func policy(http: RuntimeHost.PlainHTTP = .localNetwork) throws -> RuntimePolicy {
        var manifest = Manifest(policyName: "dashboard", targetIOS: "16.0", distribution: "app-store")
        manifest.runtimeHosts = [RuntimeHost(name: "server", schemes: ["https", "http"], http: http)]
        let server = HostScope(pattern: "${server}")
        manifest.navigation = NavigationRules(pages: [NavigationRules.Entry(host: server, schemes: ["https", "http"])])
        manifest.bridges = [Bridge(name: "externalBus", origins: [Bridge.Origin(host: server, schemes: ["https", "http"])])]
        return try RuntimePolicy(manifest: Data(manifest.serialized().utf8), contentRuleLists: [])
    }

    static func page(_ url: String) -> RuntimeRequest { RuntimeRequest(url: url, type: "page", initiator: .app) }

    @Test func anUnboundRoleMatchesNoHost() throws {
        let policy = try Self.policy()
        #expect(policy.evaluate(Self.page("https://ha.example.com/")).verdict == .block)
        #expect(!policy.allowsMessage(frameOrigin: "https://ha.example.com", isMainFrame: true, handler: "externalBus"))
        #expect(policy.bindings.isEmpty)
    }

    @Test func aBindingAdmitsItsOriginExactly() throws {
        let policy = try Self.policy()
        let bound = policy.bind("server", to: "https://ha.example.com/auth?code=1")
        #expect(bound.verdict == .allow, "\(bound.reason)")
        #expect(bound.reason.contains("binds ${server} to https://ha.example.com"), "\(bound.reason)")
        #expect(policy.evaluate(Self.page("https://ha.example.com/lovelace")).verdict == .allow)
        #expect(policy.allowsMessage(frameOrigin: "https://ha.example.com", isMainFrame: true, handler: "externalBus"))
        // The origin, exactly: not its subdomains, another port or plain http to the same host.
        #expect(policy.evaluate(Self.page("https://www.ha.example.com/")).verdict == .block)
        #expect(policy.evaluate(Self.page("https://ha.example.com:8443/")).verdict == .block)
        #expect(!policy.allowsMessage(frameOrigin: "http://ha.example.com", isMainFrame: true, handler: "externalBus"))
        #expect(!policy.allowsHTTPRequest("http://ha.example.com/"))
    }

    @Test func plainHTTPBindsOnlyOnTheLocalNetwork() throws {
        let policy = try Self.policy()
        #expect(policy.bind("server", to: "http://homeassistant.local:8123").verdict == .allow)
        let page = policy.evaluate(Self.page("http://homeassistant.local:8123/lovelace"))
        #expect(page.verdict == .allow, "\(page.reason)")
        #expect(policy.allowsHTTPRequest("http://homeassistant.local:8123/api/websocket"))
        #expect(policy.allowsHTTPRequest("ws://homeassistant.local:8123/api/websocket"))
        #expect(!policy.allowsHTTPRequest("http://homeassistant.local/"))
        for local in ["http://192.168.1.20:8123", "http://10.0.0.2", "http://172.20.1.1", "http://169.254.3.4", "http://nas", "http://[fd00::1]:8123", "http://[fe80::1]"] {
            #expect(policy.bind("server", to: local).verdict == .allow, "\(local)")
        }
        for remote in ["http://dash.example.net", "http://8.8.8.8", "http://172.32.0.1", "http://[2001:db8::1]"] {
            let refused = policy.bind("server", to: remote)
            #expect(refused.verdict == .block, "\(remote)")
            #expect(refused.reason.contains("not on the local network"), "\(refused.reason)")
            // A refused binding leaves the role unbound: the server the app had is not kept.
            #expect(policy.bindings["server"] == nil)
        }
        // With `http: anywhere`, a public plain-http server binds too.
        #expect(try Self.policy(http: .anywhere).bind("server", to: "http://dash.example.net").verdict == .allow)
    }

    @Test func whatIsNotTheRolesIsRefused() throws {
        let policy = try Self.policy()
        #expect(policy.bind("sever", to: "https://ha.example.com").reason.contains("no role is named 'sever'"))
        #expect(policy.bind("server", to: "ftp://ha.example.com").verdict == .block)
        #expect(policy.bind("server", to: "https://[::1").verdict == .block)
        #expect(policy.bindings.isEmpty)
    }

    @Test func rebindingMovesEveryDecisionAndUnbindingEndsThem() throws {
        let policy = try Self.policy()
        let session = policy.makeSession()
        policy.bind("server", to: "https://ha.example.com")
        #expect(session.evaluate(Self.page("https://ha.example.com/")).verdict == .allow)
        policy.bind("server", to: "http://homeassistant.local:8123")
        #expect(session.evaluate(RuntimeRequest(url: "https://ha.example.com/", type: "page", initiator: .app)).verdict == .block)
        #expect(session.evaluate(RuntimeRequest(url: "http://homeassistant.local:8123/", type: "page", initiator: .app)).verdict == .allow)
        policy.unbind("server")
        #expect(session.evaluate(RuntimeRequest(url: "http://homeassistant.local:8123/", type: "page", initiator: .app)).verdict == .block)
    }

    /// Decisions on several threads while another rebinds: each sees one binding whole — the
    /// old or the new — never a mix, and nothing crashes (run under `--sanitize=thread` too).
    @Test func decisionsWhileAnotherThreadRebinds() async throws {
        let policy = try Self.policy()
        let servers = ["https://a.example.com", "https://b.example.com"]
        policy.bind("server", to: servers[0])
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for round in 0..<2_000 { policy.bind("server", to: servers[round % 2]) }
                return true
            }
            for _ in 0..<3 {
                group.addTask {
                    // Whichever server is bound at the moment, exactly one of the two is the
                    // bound origin, and a third never is.
                    for _ in 0..<2_000 {
                        let bound = policy.bindings["server"]?.origin
                        guard let bound, servers.contains(bound) else { return false }
                        if policy.allowsMessage(frameOrigin: "https://c.example.com", isMainFrame: true, handler: "externalBus") { return false }
                    }
                    return true
                }
            }
            for await fine in group { #expect(fine) }
        }
        let bound = try #require(policy.bindings["server"])
        #expect(servers.contains(bound.origin))
    }

    @Test func theManifestCarriesRolesAndIsVersionFour() throws {
        var manifest = Manifest(policyName: "dashboard", targetIOS: "16.0", distribution: "app-store")
        manifest.runtimeHosts = [RuntimeHost(name: "server", description: "The server.", schemes: ["https", "http"], http: .localNetwork)]
        manifest.httpAllowlist = [Manifest.HTTPAllowlistEntry(host: HostScope(pattern: "${server}"))]
        let text = manifest.serialized()
        #expect(text.contains("\"webpolicyManifest\": 4"))
        #expect(text.contains("\"role\": \"server\""))
        let decoded = try Manifest.decode(text).get()
        #expect(decoded.runtimeHosts == manifest.runtimeHosts)
        #expect(decoded.httpAllowlist == manifest.httpAllowlist)
    }

    @Test func theLocalNetworkIsWhatNSAllowsLocalNetworkingIsFor() {
        for host in ["homeassistant", "nas.local", "localhost", "127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.10", "169.254.1.1", "[::1]", "[fd12::1]", "[fe80::2]"] {
            #expect(LocalNetwork.contains(host), "\(host)")
        }
        for host in ["ha.example.com", "8.8.8.8", "172.15.0.1", "172.32.0.1", "192.169.0.1", "[2001:db8::1]", "[::ffff:c0a8:1]", ""] {
            #expect(!LocalNetwork.contains(host), "\(host)")
        }
    }
}
