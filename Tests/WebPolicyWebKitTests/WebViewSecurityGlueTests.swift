import Foundation
import Testing
import WebPolicyRuntime
@testable import WebPolicyWebKit

/// `webview:`'s security settings as the glue applies them, with fakes: the web-page
/// preferences, the data store, the extension controller, and the answers to permission
/// requests — `.prompt` exactly where simulate says allow.
@Suite("Web view security settings and permissions (fakes)")
struct WebViewSecurityGlueTests {
    static func policy(_ change: (inout WebViewSettings) -> Void) throws -> RuntimePolicy {
        var manifest = Manifest(policyName: "p", targetIOS: "26.4", distribution: "app-store")
        var settings = WebViewSettings()
        change(&settings)
        manifest.webView = settings
        manifest.runtimeHosts = [RuntimeHost(name: "clinic", schemes: ["https"])]
        return try RuntimePolicy(manifest: Data(manifest.serialized().utf8), contentRuleLists: [])
    }

    @Test func theWebpagePreferencesStoreAndExtensionsReachTheConfiguration() throws {
        let policy = try Self.policy { settings in
            settings.choices = ["lockdown": "true", "https-navigation": "error-on-failure", "security-restriction-mode": "lockdown"]
            settings.dataStore = .profile("work")
            settings.webExtensions = []
        }
        let configuration = FakeWebViewConfiguration()
        policy.configureWebView(configuration)
        // WebKit's raw values (WKWebpagePreferences.h): errorOnFailure 3, lockdown 2, YES 1.
        #expect(configuration.preferences == ["defaultWebpagePreferences.lockdownModeEnabled": 1,
                                              "defaultWebpagePreferences.preferredHTTPSNavigationPolicy": 3,
                                              "defaultWebpagePreferences.securityRestrictionMode": 2])
        #expect(configuration.dataStore == .profile("work"))
        #expect(configuration.webExtensionControllerRemoved)
        #expect(!policy.allowsWebExtensions && !policy.allowsWebExtension(named: "reader"))

        let page = policy.pageSettings
        #expect(page.navigationPreferences["https-navigation"]?.swift == "errorOnFailure")
        #expect(page.navigationPreferences["security-restriction-mode"]?.swift == "lockdown")
        #expect(page.dataStore == .profile("work") && page.removesWebExtensionController)
    }

    /// Keys the policy leaves out change nothing: the device's Lockdown Mode, the app's store,
    /// its extensions.
    @Test func aPolicyThatSaysNothingChangesNothing() throws {
        let policy = try Self.policy { _ in }
        let configuration = FakeWebViewConfiguration()
        policy.configureWebView(configuration)
        #expect(configuration.preferences.isEmpty)
        #expect(configuration.dataStore == nil && !configuration.webExtensionControllerRemoved)
        #expect(policy.allowsWebExtension(named: "reader"))
        #expect(policy.pageSettings.navigationPreferences.isEmpty)
    }

    @Test func aListOfExtensionsAdmitsThoseOnly() throws {
        let policy = try Self.policy { $0.webExtensions = ["reader"] }
        #expect(policy.allowsWebExtensions && policy.allowsWebExtension(named: "reader") && !policy.allowsWebExtension(named: "adblock"))
    }

    @Test func permissionRequestsAreAnsweredAsTheEngineDecidesThem() throws {
        let policy = try Self.policy { settings in
            settings.permissions = PermissionRules([
                .camera: .init(.origins([HostScope(pattern: "meet.example.com"), HostScope(pattern: "${clinic}")])),
                .microphone: .init(.ask),
                .deviceMotion: .init(.deny),
            ])
        }
        let decider = PermissionDecider(policy: policy)
        // WKMediaCaptureType: camera 0, microphone 1, camera and microphone 2.
        let cases: [(Int?, String, Bool)] = [
            (0, "https://meet.example.com", true), (0, "https://ads.example.net", false), (0, "http://meet.example.com", false),
            (2, "https://meet.example.com", true), (2, "https://ads.example.net", false), (1, "https://ads.example.net", true),
            (nil, "https://meet.example.com", false), (0, "https://care.clinic.example", false),
        ]
        for (type, origin, asked) in cases {
            let answer = decider.decide(mediaCaptureTypeRawValue: type, origin: origin, isMainFrame: true)
            let kinds: [PermissionKind] = type == nil ? [.deviceMotion] : type == 0 ? [.camera] : type == 1 ? [.microphone] : [.camera, .microphone]
            let engine = policy.decidePermission(kinds, frameOrigin: origin)
            #expect((answer == .prompt) == asked, "\(String(describing: type)) \(origin): \(answer)")
            #expect((answer == .prompt) == (engine.verdict == .allow), "the glue and the engine differ on \(origin)")
        }
        // A role's origin asks once it is bound, and only that origin.
        policy.bind("clinic", to: "https://care.clinic.example")
        #expect(decider.decide(mediaCaptureTypeRawValue: 0, origin: "https://care.clinic.example", isMainFrame: false) == .prompt)
        #expect(decider.decide(mediaCaptureTypeRawValue: 0, origin: "https://other.clinic.example", isMainFrame: true) != .prompt)
        #expect(PermissionDecider.origin(protocol: "https", host: "meet.example.com", port: 0) == "https://meet.example.com")
        #expect(PermissionDecider.origin(protocol: "https", host: "meet.example.com", port: 8443) == "https://meet.example.com:8443")
    }

    @Test func anOriginThatDoesNotParseIsRefused() throws {
        let policy = try Self.policy { $0.permissions = PermissionRules([.camera: .init(.ask)]) }
        if case .deny(let reason) = PermissionDecider(policy: policy).decide([.camera], origin: "https://exa mple.com", isMainFrame: true) {
            #expect(reason.contains("does not parse"))
        } else {
            Issue.record("an unparsable origin was asked")
        }
    }
}
