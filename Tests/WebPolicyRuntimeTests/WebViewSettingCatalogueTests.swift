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
