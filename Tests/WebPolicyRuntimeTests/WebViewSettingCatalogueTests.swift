import Foundation
import Testing
import WebPolicyRuntime

/// The rows every layer reads for `webview:`'s on/off settings: well-formed, and each one
/// carried through the manifest.
@Suite("Web view setting catalogue")
struct WebViewSettingCatalogueTests {
    static let rows = WebViewSettingCatalogue.booleans

    @Test func namesAreUniqueAndAgree() {
        #expect(Set(Self.rows.map(\.key)).count == Self.rows.count)
        #expect(Set(Self.rows.map(\.manifestKey)).count == Self.rows.count)
        #expect(Set(Self.rows.map(\.keyPath)).count == Self.rows.count)
        for row in Self.rows {
            // The key path ends in the Objective-C property; Apple's name ends in the Swift one.
            #expect(row.keyPath.split(separator: ".").last.map(String.init) == row.objectiveCName, "\(row.key)")
            #expect(row.api.hasSuffix("." + row.swiftName), "\(row.key)")
            #expect(row.firstIOS.wholeMatch(of: /\d+\.\d+/) != nil, "\(row.key)")
            #expect(WebViewSettingCatalogue.boolean(key: row.key)?.manifestKey == row.manifestKey)
        }
    }

    /// Each row's value is written and read back, the platform's default is what a manifest
    /// without the key (an older compiler's) gives, and no two rows share a setting.
    @Test(arguments: WebViewSettingCatalogue.booleans.map(\.key))
    func eachRowRoundTripsThroughTheManifest(key: String) throws {
        let row = try #require(WebViewSettingCatalogue.boolean(key: key))
        var manifest = Manifest(policyName: "p", targetIOS: "26.0", distribution: "development")
        var settings = WebViewSettings()
        #expect(settings[keyPath: row.setting] == row.defaultValue)
        settings[keyPath: row.setting] = !row.defaultValue
        manifest.webView = settings
        let text = manifest.serialized()
        let read = try #require(try Manifest.decode(text).get().webView)
        #expect(read[keyPath: row.setting] == !row.defaultValue)
        for other in Self.rows where other.key != row.key {
            #expect(read[keyPath: other.setting] == other.defaultValue, "\(other.key) moved with \(row.key)")
        }

        let withoutKey = text.replacingOccurrences(of: "\"\(row.manifestKey)\": \(!row.defaultValue),", with: "")
        #expect(withoutKey != text)
        #expect(try Manifest.decode(withoutKey).get().webView?[keyPath: row.setting] == row.defaultValue)
    }
}

/// The named web-page preferences, the data store, extensions and permissions: well-formed
/// rows, carried through the manifest, and version 5 only when a manifest has one of them.
@Suite("Web view security settings in the manifest")
struct WebViewSecurityManifestTests {
    @Test func choiceRowsAreWellFormed() {
        let rows = WebViewSettingCatalogue.choices
        #expect(Set(rows.map(\.key)).count == rows.count && Set(rows.map(\.manifestKey)).count == rows.count)
        for row in rows {
            #expect(row.api.hasSuffix("." + row.swiftName), "\(row.key)")
            #expect(row.firstIOS.wholeMatch(of: /\d+\.\d+/) != nil, "\(row.key)")
            #expect(row.choice(named: row.olderIOS) != nil, "\(row.key): what an older iOS does is one of its values")
            // WebKit's NS_ENUMs count from 0 in the header's order.
            #expect(Set(row.choices.map(\.rawValue)).count == row.choices.count, "\(row.key)")
            for choice in row.choices {
                #expect(row.choice(writtenAs: "." + choice.swift) == choice, "\(row.key) \(choice.name)")
                #expect(row.choice(writtenAs: choice.objectiveC) == choice, "\(row.key) \(choice.name)")
            }
        }
        #expect(WebViewSettingCatalogue.choice(key: "https-navigation")?.choice(writtenAs: "WKWebpagePreferences.UpgradeToHTTPSPolicy.errorOnFailure")?.rawValue == 3)
    }

    @Test func everySecuritySettingRoundTripsAndRaisesTheVersion() throws {
        var manifest = Manifest(policyName: "p", targetIOS: "26.4", distribution: "app-store")
        manifest.webView = WebViewSettings()
        #expect(manifest.serialized().contains("\"webpolicyManifest\": 3"))
        var settings = WebViewSettings()
        settings.choices = ["lockdown": "false", "security-restriction-mode": "maximize-compatibility", "https-navigation": "automatic-fallback-to-http"]
        settings.dataStore = .profile("work")
        settings.webExtensions = ["reader"]
        settings.permissions = PermissionRules([
            .camera: .init(.origins([HostScope(pattern: "*.meet.example.com"), HostScope(pattern: "${clinic}")])),
            .microphone: .init(.ask), .deviceMotion: .init(.deny),
        ])
        manifest.webView = settings
        let text = manifest.serialized()
        #expect(text.contains("\"webpolicyManifest\": 5"))
        let read = try #require(try Manifest.decode(text).get().webView)
        #expect(read.choices == settings.choices && read.dataStore == settings.dataStore && read.webExtensions == ["reader"])
        #expect(read.permissions == settings.permissions)
        for store in [WebsiteDataStoreChoice.default, .nonPersistent] {
            manifest.webView?.dataStore = store
            #expect(try Manifest.decode(manifest.serialized()).get().webView?.dataStore == store)
        }
    }

    /// The same name opens the same store in every build; a UUID is itself.
    @Test func aProfilesIdentifierIsStable() {
        let work = WebsiteDataStoreChoice.profile("work").identifier
        #expect(work == "0E9322B9-B442-8EEE-9F1F-2C3A625C386C")
        #expect(WebsiteDataStoreChoice.profile("home").identifier != work)
        #expect(WebsiteDataStoreChoice.profile("0e9322b9-b442-4eee-9f1f-2c3a625c386c").identifier == "0E9322B9-B442-4EEE-9F1F-2C3A625C386C")
        #expect(WebsiteDataStoreChoice.nonPersistent.identifier == nil)
    }

    @Test(arguments: [
        ("\"lockdown\": \"maybe\"", "\"lockdown\" holds \"maybe\""),
        ("\"dataStore\": {\"kind\": \"cloud\"}", "\"dataStore\" is default, non-persistent or profile"),
        ("\"permissions\": {\"camera\": {\"rule\": \"grant\"}}", "a permission's \"rule\" is deny, ask or origins"),
    ])
    func aBadValueIsRefusedAtItsPlace(member: String, message: String) throws {
        var manifest = Manifest(policyName: "p", targetIOS: "26.4", distribution: "app-store")
        manifest.webView = WebViewSettings()
        let text = manifest.serialized().replacingOccurrences(of: "\"dataDetectors\": []", with: "\"dataDetectors\": [], \(member)")
        guard case .failure(let error) = Manifest.decode(text) else { Issue.record("accepted \(member)"); return }
        #expect(error.message.contains(message), "\(error.message)")
    }
}
