import Foundation
import Testing
import TestSupport

/// The fixture apps written again with WebKit for SwiftUI (iOS 26's `WebPage`, `WebView`,
/// `NavigationDeciding`, `urlSchemeHandlers`, `callJavaScript`): with the same policy and
/// Info.plist, the audit reports the same rules on a twin as on its WKWebView original, except
/// for what a WebPage cannot do at all, each named here with the reason.
@Suite("audit: WebKit for SwiftUI twins (the binary)")
struct AuditTwinTests {
    struct Twin: Sendable, CustomTestStringConvertible {
        var webPage: String
        var webView: String
        /// Rules the original reports that its twin cannot trigger, and why.
        var cannot: [String: String]
        /// Keys the original's draft has that its twin's cannot, and why.
        var cannotDraft: [String: String] = [:]

        var testDescription: String { "\(webPage) ↔ \(webView)" }
    }

    static let twins = [
        Twin(webPage: "swiftui-shop", webView: "swift-shop", cannot: [
            "new-window-second-webview": "a WebPage opens no second view for a new window: WebKit's WKUIDelegateAdapter has no createWebViewWith",
            "webview-config-after-init": "a WebPage exposes no configuration to change once it is made",
            "file-access-kvc": "WebPage.Configuration has no WKPreferences to set a key on",
        ], cannotDraft: [
            "javascript-can-open-windows": "WebPage.Configuration has no WKPreferences, whose javaScriptCanOpenWindowsAutomatically it is",
        ]),
        // Scripts and bridges: callJavaScript for evaluateJavaScript, a NavigationDeciding for
        // the navigation delegate, page.title for webView.title.
        Twin(webPage: "swiftui-scripts", webView: "script-splices", cannot: [:]),
        // Bridges, inspection, hand-offs, a file base URL, permissions: a new window through the
        // decider, a grant-all deviceSensorAuthorization for the UI delegate's grant. The
        // private key-value coding left is the Objective-C file both apps share: a WebPage is no
        // NSObject to set a key on.
        Twin(webPage: "swiftui-home", webView: "home-server", cannot: [:]),
    ]

    /// `init --from-app`'s draft without its comments, the app's folder named alike.
    static func draft(_ app: String, without keys: [String]) throws -> String {
        let folder = try TemporaryFolder.make("twin-draft")
        let output = folder.appendingPathComponent("app.yaml").path
        let written = try CommandRunner.run(["init", "--from-app", "Tests/Fixtures/audit/\(app)/app", "--output", output])
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in !line.trimmingCharacters(in: .whitespaces).hasPrefix("#") && !keys.contains { line.trimmingCharacters(in: .whitespaces).hasPrefix($0 + ":") } }
            .joined(separator: "\n")
            .replacingOccurrences(of: "Tests/Fixtures/audit/\(app)/", with: "APP/")
            .replacingOccurrences(of: "'\(app)'", with: "APP")
    }

    @Test(arguments: twins)
    func aTwinDraftsTheSamePolicy(twin: Twin) throws {
        let original = try Self.draft(twin.webView, without: Array(twin.cannotDraft.keys))
        let webPage = try Self.draft(twin.webPage, without: [])
        #expect(webPage == original)
    }

    static func rules(_ app: String) throws -> Set<String> {
        let result = try AuditCommandTests.audit(app, ["--policy", "Tests/Fixtures/audit/\(app)/policy.yaml", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return Set((object["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String })
    }

    @Test(arguments: twins)
    func aTwinReportsTheSameRulesAsItsOriginal(twin: Twin) throws {
        let original = try Self.rules(twin.webView)
        let webPage = try Self.rules(twin.webPage)
        #expect(webPage == original.subtracting(twin.cannot.keys), "only on the WKWebView app: \(original.subtracting(webPage).sorted()); only on the WebPage twin: \(webPage.subtracting(original).sorted())")
        // A difference named here must be one the original really has.
        #expect(Set(twin.cannot.keys).isSubset(of: original))
    }

    @Test(arguments: twins)
    func bothShareTheirPolicyAndInfoPlist(twin: Twin) throws {
        let fixtures = AuditCommandTests.fixtures
        // The files beside the code: the policy, the audit's configuration, the Info.plists.
        let shared = try FileManager.default.subpathsOfDirectory(atPath: fixtures.appendingPathComponent(twin.webView).path)
            .filter { $0 == "policy.yaml" || $0 == "webpolicy.yml" || $0.hasSuffix("Info.plist") }
        #expect(shared.contains("policy.yaml"))
        for file in shared.sorted() {
            let left = try String(contentsOf: fixtures.appendingPathComponent("\(twin.webPage)/\(file)"), encoding: .utf8)
            let right = try String(contentsOf: fixtures.appendingPathComponent("\(twin.webView)/\(file)"), encoding: .utf8)
            #expect(left == right, "\(file)")
        }
    }
}
