import Foundation
import Testing
import WebPolicyRuntime
@testable import WebPolicyWebKit

/// A `WKUserContentController` stand-in: what was added, in which world, and a way to post.
@MainActor
final class FakeRegistry: MessageHandlerRegistry {
    var plain: [(name: String, world: ContentWorldName, receive: @MainActor @Sendable (ReceivedMessage) -> Void)] = []
    var withReply: [(name: String, world: ContentWorldName, receive: @MainActor @Sendable (ReceivedMessage, @escaping @MainActor @Sendable (Any?, String?) -> Void) -> Void)] = []

    func addHandler(named name: String, in world: ContentWorldName, receive: @escaping @MainActor @Sendable (ReceivedMessage) -> Void) {
        plain.append((name, world, receive))
    }

    func addReplyHandler(named name: String, in world: ContentWorldName,
                         receive: @escaping @MainActor @Sendable (ReceivedMessage, @escaping @MainActor @Sendable (Any?, String?) -> Void) -> Void) {
        withReply.append((name, world, receive))
    }

    /// Posts as WebKit would: only to a handler of that name in the message's world.
    func post(_ message: ReceivedMessage) {
        for handler in plain where handler.name == message.name && handler.world == message.world { handler.receive(message) }
    }

    func ask(_ message: ReceivedMessage) -> (value: Any?, error: String?)? {
        var answer: (Any?, String?)?
        for handler in withReply where handler.name == message.name && handler.world == message.world {
            handler.receive(message) { value, error in answer = (value, error) }
        }
        return answer
    }
}

@MainActor
@Suite("The message gate (fakes)")
struct ScriptMessageGateTests {
    static func message(_ name: String, from host: String, scheme: String = "https", mainFrame: Bool = true, world: ContentWorldName = .page) -> ReceivedMessage {
        ReceivedMessage(name: name, body: ["action": "deeplink"], origin: FrameOrigin(scheme: scheme, host: host), isMainFrame: mainFrame, world: world)
    }

    @Test func theAppsHandlerHearsOnlyWhatThePolicyAdmits() throws {
        let registry = FakeRegistry()
        var refused: [String] = []
        let gate = ScriptMessageGate(policy: try Fixtures.policy("webapp-plugin")) { _, reason in refused.append(reason) }
        var heard: [String] = []
        try gate.register({ heard.append($0.origin.host) }, as: "AppInterface", in: registry)
        #expect(registry.plain.map(\.name) == ["AppInterface"] && registry.plain[0].world == .page)

        registry.post(Self.message("AppInterface", from: "hackathon.example.com"))
        // A refused origin, a child frame to a main-only bridge, plain http: never heard.
        registry.post(Self.message("AppInterface", from: "phish.example.net"))
        registry.post(Self.message("AppInterface", from: "hackathon.example.com", mainFrame: false))
        registry.post(Self.message("AppInterface", from: "hackathon.example.com", scheme: "http"))
        #expect(heard == ["hackathon.example.com"])
        #expect(refused.count == 3)
        #expect(refused[1].contains("admits the main frame only"), "\(refused)")
    }

    @Test func aHandlerGoesOnlyIntoItsDeclaredWorld() throws {
        let registry = FakeRegistry()
        let gate = ScriptMessageGate(policy: try Self.policyWith("""
          - name: session
            origins: ["*.shop.example.com"]
            world: client
        """))
        var heard = 0
        try gate.register({ _ in heard += 1 }, as: "session", in: registry)
        #expect(registry.plain.map(\.world) == [.client])
        // A page script posts to the page world, where no such handler exists: WebKit never
        // delivers it, and the gate would refuse it too.
        registry.post(Self.message("session", from: "www.shop.example.com", world: .page))
        registry.post(Self.message("session", from: "www.shop.example.com", world: .client))
        #expect(heard == 1)
        #expect(gate.policy.decideMessage(frameOrigin: "https://www.shop.example.com", isMainFrame: true, handler: "session", world: .page).verdict == .block)
    }

    @Test func aRefusedReplyIsRejectedAndTheHandlerNeverRuns() throws {
        let registry = FakeRegistry()
        let gate = ScriptMessageGate(policy: try Fixtures.policy("offline-packages"))
        var ran = 0
        try gate.registerWithReply({ _, reply in ran += 1; reply(["status": 200], nil) }, as: "jssdk", in: registry)
        let admitted = try #require(registry.ask(Self.message("jssdk", from: "package", scheme: "zl-offline")))
        #expect(admitted.error == nil && (admitted.value as? [String: Int]) == ["status": 200])
        let refused = try #require(registry.ask(Self.message("jssdk", from: "ads.example.net")))
        #expect(refused.value == nil && refused.error == "refused by the app's policy")
        #expect(ran == 1)
    }

    @Test func anUndeclaredHandlerOrAMismatchedReplyIsNotRegistered() throws {
        let registry = FakeRegistry()
        let gate = ScriptMessageGate(policy: try Fixtures.policy("webapp-plugin"))
        #expect(throws: ScriptMessageGateError.undeclared("native", declared: ["AppInterface"])) { try gate.register({ _ in }, as: "native", in: registry) }
        #expect(throws: ScriptMessageGateError.replyMismatch("AppInterface", declaredReply: false)) {
            try gate.registerWithReply({ _, _ in }, as: "AppInterface", in: registry)
        }
        #expect(registry.plain.isEmpty && registry.withReply.isEmpty)
        #expect(ScriptMessageGateError.undeclared("native", declared: ["AppInterface"]).description.contains("declare it under bridges:"))
    }

    static func policyWith(_ bridges: String) throws -> RuntimePolicy {
        var manifest = Manifest(policyName: "p", targetIOS: "16.4", distribution: "app-store")
        let lines = bridges.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        // A tiny reader for the one shape these tests write: name, origins, world.
        let name = lines.first { $0.hasPrefix("- name: ") }.map { String($0.dropFirst("- name: ".count)) } ?? ""
        let world = lines.first { $0.hasPrefix("world: ") }.map { ContentWorldName(String($0.dropFirst("world: ".count))) } ?? .page
        manifest.bridges = [Bridge(name: name, origins: [Bridge.Origin(host: Manifest.HostMatch(pattern: "*.shop.example.com"))], world: world)]
        return try RuntimePolicy(manifest: Data(manifest.serialized().utf8), contentRuleLists: [])
    }
}

/// The configuration, as the configurator sets it: each row's key path and value.
final class FakeWebViewConfiguration: WebViewConfigurable {
    var applied: [String: Bool] = [:]
    /// Web-page preferences by key path, as the raw value WebKit stores.
    var preferences: [String: Int] = [:]
    var dataDetectors: [DataDetector] = []
    var dataStore: WebsiteDataStoreChoice?
    var webExtensionControllerRemoved = false
    func apply(_ setting: WebViewBooleanSetting, _ value: Bool) { applied[setting.keyPath] = value }
    func apply(_ setting: WebViewChoiceSetting, _ choice: WebViewChoiceSetting.Choice) { preferences[setting.keyPath] = choice.rawValue }
    func useDataStore(_ store: WebsiteDataStoreChoice) { dataStore = store }
    func removeWebExtensionController() { webExtensionControllerRemoved = true }
}

/// The view, as the configurator sets it.
final class FakeWebView: InspectionTarget {
    var applied: [String: Bool] = [:]
    func apply(_ setting: WebViewBooleanSetting, _ value: Bool) { applied[setting.keyPath] = value }
}

@Suite("The web view configurator (fakes)")
struct WebViewConfiguratorTests {
    @Test func thePolicysSettingsReachTheConfigurationAndTheView() throws {
        var manifest = Manifest(policyName: "p", targetIOS: "16.4", distribution: "development")
        var settings = WebViewSettings()
        settings.javaScript = false
        settings.javaScriptCanOpenWindows = true
        settings.upgradeKnownHostsToHTTPS = false
        settings.fraudulentWebsiteWarning = false
        settings.elementFullscreen = true
        settings.dataDetectors = [.phoneNumber, .link]
        settings.inspectable = true
        settings.fileAccess = "Offline/shop"
        manifest.webView = settings
        let policy = try RuntimePolicy(manifest: Data(manifest.serialized().utf8), contentRuleLists: [])
        let configuration = FakeWebViewConfiguration()
        let view = FakeWebView()
        policy.configureWebView(configuration)
        policy.configureInspection(view)
        // The rows set above at their values; every other configuration row at its default.
        var expected = Dictionary(uniqueKeysWithValues: WebViewSettingCatalogue.booleans.filter { $0.target == .configuration }.map { ($0.keyPath, $0.defaultValue) })
        expected.merge([
            "defaultWebpagePreferences.allowsContentJavaScript": false, "preferences.javaScriptCanOpenWindowsAutomatically": true,
            "upgradeKnownHostsToHTTPS": false, "preferences.fraudulentWebsiteWarningEnabled": false, "preferences.elementFullscreenEnabled": true,
        ]) { $1 }
        #expect(configuration.applied == expected)
        #expect(view.applied == ["inspectable": true])
        #expect(configuration.dataDetectors == [.phoneNumber, .link])

        let bundle = URL(fileURLWithPath: "/App.app")
        #expect(try policy.fileReadAccess(for: bundle.appendingPathComponent("Offline/shop/index.html"), bundle: bundle).path == "/App.app/Offline/shop")
        #expect(throws: FileAccessError.self) { try policy.fileReadAccess(for: bundle.appendingPathComponent("Offline/other/index.html"), bundle: bundle) }
        #expect(throws: FileAccessError.self) { try policy.fileReadAccess(for: bundle.appendingPathComponent("Offline/shop/../secrets.plist"), bundle: bundle) }
    }

    /// Every row is applied where the policy leaves it, at the platform's default: the app
    /// holds what the manifest says, not what code before it set.
    @Test func aSectionWithoutAKeyAppliesThePlatformsDefault() throws {
        var manifest = Manifest(policyName: "p", targetIOS: "16.4", distribution: "development")
        manifest.webView = WebViewSettings()
        let policy = try RuntimePolicy(manifest: Data(manifest.serialized().utf8), contentRuleLists: [])
        let configuration = FakeWebViewConfiguration()
        let view = FakeWebView()
        policy.configureWebView(configuration)
        policy.configureInspection(view)
        let rows = WebViewSettingCatalogue.booleans
        #expect(configuration.applied == Dictionary(uniqueKeysWithValues: rows.filter { $0.target == .configuration }.map { ($0.keyPath, $0.defaultValue) }))
        #expect(view.applied == Dictionary(uniqueKeysWithValues: rows.filter { $0.target == .view }.map { ($0.keyPath, $0.defaultValue) }))
    }

    @Test func aPolicyWithoutTheSectionChangesNothing() throws {
        let configuration = FakeWebViewConfiguration()
        let view = FakeWebView()
        let policy = try Fixtures.policy("https-and-trackers")
        policy.configureWebView(configuration)
        policy.configureInspection(view)
        #expect(configuration.applied.isEmpty && configuration.dataDetectors.isEmpty && view.applied.isEmpty)
        #expect(throws: FileAccessError.noFileAccess) { try policy.fileReadAccess(for: URL(fileURLWithPath: "/App.app/a.html"), bundle: URL(fileURLWithPath: "/App.app")) }
    }
}
