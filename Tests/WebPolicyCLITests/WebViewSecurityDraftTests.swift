import Foundation
import Testing

/// `init --from-app` and `audit` on an app that sets `webview:`'s security settings: the draft
/// writes what the code sets (within the target iOS), never a grant without the user, and
/// the audit holds the code to the drafted policy.
@Suite("Security settings in the draft and the audit (the binary)")
struct WebViewSecurityDraftTests {
    static let call = """
    import WebKit

    final class CallViewController: UIViewController, WKUIDelegate {
        func makeWebView() -> WKWebView {
            let configuration = WKWebViewConfiguration()
            configuration.websiteDataStore = .nonPersistent()
            configuration.defaultWebpagePreferences.isLockdownModeEnabled = true
            configuration.defaultWebpagePreferences.preferredHTTPSNavigationPolicy = .errorOnFailure
            let webView = WKWebView(frame: .zero, configuration: configuration)
            webView.uiDelegate = self
            return webView
        }

        func webView(_ webView: WKWebView, requestMediaCapturePermissionFor origin: WKSecurityOrigin,
                     initiatedByFrame frame: WKFrameInfo, type: WKMediaCaptureType,
                     decisionHandler: @escaping (WKPermissionDecision) -> Void) {
            decisionHandler(.grant)
        }
    }

    """

    @Test func theDraftWritesTheSettingsAndAsksInsteadOfGranting() throws {
        let folder = try CommandRunner.makeFolder(["App/Call.swift": Self.call])
        let draft = try CommandRunner.run(["init", "--from-app", ".", "--output", "draft.yaml"], in: folder)
        #expect(draft.status == 0, "\(draft.stdout)\(draft.stderr)")
        let text = try String(contentsOf: folder.appendingPathComponent("draft.yaml"), encoding: .utf8)
        #expect(text.contains("  data-store: non-persistent\n"), "\(text)")
        #expect(text.contains("  permissions:\n    camera: ask\n    microphone: ask\n"), "\(text)")
        // Above the default target (15.0): said, not written, so the draft lints clean.
        #expect(text.contains("# decide: the code sets isLockdownModeEnabled to true (iOS 16.0), above the deployment target"), "\(text)")
        #expect(text.contains("preferredHTTPSNavigationPolicy to error-on-failure (iOS 18.2)"), "\(text)")
        let lint = try CommandRunner.run(["lint", "draft.yaml"], in: folder)
        #expect(lint.status == 0, "\(lint.stdout)")
        let audit = try CommandRunner.run(["audit", ".", "--policy", "draft.yaml"], in: folder)
        #expect(audit.stdout.contains("grants the camera and microphone without asking the user, but the policy says camera: ask [permission-granted-to-any-origin]"), "\(audit.stdout)")
    }

    @Test func codeAgainstThePolicysSettingsIsReported() throws {
        let policy = """
        webpolicy: 1
        name: call
        target: { ios: "18.2" }
        webview:
          lockdown: false
          https-navigation: error-on-failure
          data-store: default
          permissions:
            camera: deny

        """
        let folder = try CommandRunner.makeFolder(["App/Call.swift": Self.call, "call.yaml": policy])
        let audit = try CommandRunner.run(["audit", ".", "--policy", "call.yaml"], in: folder)
        #expect(audit.stdout.contains("configuration.defaultWebpagePreferences.isLockdownModeEnabled is set to true, but the policy says lockdown: false"), "\(audit.stdout)")
        #expect(audit.stdout.contains("configuration.websiteDataStore is a non-persistent data store, but the policy says data-store: default"), "\(audit.stdout)")
        #expect(!audit.stdout.contains("preferredHTTPSNavigationPolicy is set"), "the code agrees with https-navigation")
        #expect(audit.stdout.contains("but the policy says camera: deny"), "\(audit.stdout)")
    }
}
