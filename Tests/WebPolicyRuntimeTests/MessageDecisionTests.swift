import Foundation
import Testing
import WebPolicyRuntime

/// `RuntimePolicy.decideMessage`, as the app's message gate asks it: with the frame's security
/// origin (scheme, host, port — no path), on the compiled example policies.
@Suite("Script messages in the runtime")
struct MessageDecisionTests {
    static func policy(_ name: String) throws -> RuntimePolicy {
        try RuntimePolicy(compiledDirectory: Fixtures.url("Tests/Fixtures/runtime/\(name)/compiled"))
    }

    @Test func aSecurityOriginIsEnoughAndItsPortDoesNotMatter() throws {
        let policy = try Self.policy("webapp-plugin")
        #expect(policy.allowsMessage(frameOrigin: "https://hackathon.example.com", isMainFrame: true, handler: "AppInterface"))
        #expect(policy.allowsMessage(frameOrigin: "https://schedule.hackathon.example.com:8443", isMainFrame: true, handler: "AppInterface"))
        let iframe = policy.decideMessage(frameOrigin: "https://hackathon.example.com", isMainFrame: false, handler: "AppInterface")
        #expect(iframe.verdict == .block)
        #expect(iframe.reason.contains("admits the main frame only"), "\(iframe.reason)")
    }

    @Test func whatDoesNotParseOrIsNotDeclaredIsRefused() throws {
        let policy = try Self.policy("webapp-plugin")
        let garbage = policy.decideMessage(frameOrigin: "https://[::1", isMainFrame: true, handler: "AppInterface")
        #expect(garbage.verdict == .block && garbage.reason.contains("does not parse"))
        let unknown = policy.decideMessage(frameOrigin: "https://hackathon.example.com", isMainFrame: true, handler: "native")
        #expect(unknown.verdict == .block && unknown.reason.contains("no bridge is named 'native'"))
        let world = policy.decideMessage(frameOrigin: "https://hackathon.example.com", isMainFrame: true, handler: "AppInterface", world: .client)
        #expect(world.verdict == .block && world.reason.contains("not client"))
    }

    @Test func aCustomSchemeOriginIsTheAppsOwnPackage() throws {
        let policy = try Self.policy("offline-packages")
        #expect(policy.allowsMessage(frameOrigin: "zl-offline://package", isMainFrame: true, handler: "jssdk"))
        #expect(!policy.allowsMessage(frameOrigin: "http://www.zuolin.com", isMainFrame: true, handler: "jssdk"))
        // A policy without bridges admits no message at all.
        let plain = try Self.policy("https-and-trackers")
        #expect(!plain.allowsMessage(frameOrigin: "https://news.example.com", isMainFrame: true, handler: "anything"))
    }

    @Test func anyHostAndTheWebViewSettingsRoundTrip() throws {
        var manifest = Manifest(policyName: "m", targetIOS: "16.4", distribution: "app-store")
        manifest.bridges = [Bridge(name: "open", origins: [Bridge.Origin(host: nil, schemes: ["https", "http"])], frames: .all, world: ContentWorldName("reader"), reply: true)]
        var settings = WebViewSettings()
        settings.javaScript = false
        settings.fileAccess = "Offline/shop"
        settings.dataDetectors = [.phoneNumber, .link]
        manifest.webView = settings
        let text = manifest.serialized()
        #expect(text.contains("\"webpolicyManifest\": 3"))
        let decoded = try Manifest.decode(text).get()
        #expect(decoded.bridges == manifest.bridges)
        #expect(decoded.webView == manifest.webView)
        #expect(decoded.bridges[0].origins[0].admits(try CanonicalURL.parse("http://anything.example").get()))
        // Without bridges or settings, the manifest stays readable by older runtimes.
        #expect(Manifest(policyName: "m", targetIOS: "16.4", distribution: "app-store").serialized().contains("\"webpolicyManifest\": 1"))
    }
}
