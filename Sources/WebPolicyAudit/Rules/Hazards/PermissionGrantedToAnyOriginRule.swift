import WebPolicyKit
import WebPolicyRuntime

/// A UI delegate that answers every camera, microphone or motion-sensor request with `.grant`,
/// never looking at who asks: WebKit then asks the user nothing, for any page or frame.
struct PermissionGrantedToAnyOriginRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "permission-granted-to-any-origin",
        name: "Camera, Microphone or Motion Granted to Every Origin",
        category: .appHazards,
        defaultSeverity: .error,
        summary: "The UI delegate grants media-capture (camera, microphone) or device-motion permission without reading the requesting origin or frame: every page and every iframe gets it, with no prompt.",
        rationale: """
        WebKit asks the UI delegate before a page turns on the camera or microphone \
        (`webView(_:requestMediaCapturePermissionFor:initiatedByFrame:type:decisionHandler:)`, \
        iOS 15) or reads motion and orientation (`requestDeviceOrientationAndMotionPermissionFor`); \
        without the method, it prompts the user (`.prompt`). Answering `.grant` without a look \
        at `origin` or `frame` gives the device's camera and microphone to every origin the \
        view ever shows — an advert in an iframe, a page reached by a link — silently. Grant \
        only to the origins the app serves (`origin.host`, `frame.isMainFrame`), or answer \
        `.prompt`. Where the policy's `webview.permissions` names the capability, any `.grant` \
        is against it — the policy never grants without the user, it asks (`ask`, a listed \
        origin) or refuses (`deny`) — whether or not the code reads the origin: answer with \
        the runtime's `PermissionDecider`. WebKit for SwiftUI's \
        `deviceSensorAuthorization = .init(decision: .grant)` is the same grant. Source: \
        Apple, `WKUIDelegate` media-capture and device-orientation permission methods, \
        `WKPermissionDecision`; WebKit's `WebPage+Configuration.swift`; audit-checks.md WV8.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2", "MASVS-PRIVACY-1"], cwe: ["CWE-285"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/WebViewController.swift", """
            extension WebViewController: WKUIDelegate {
                func ↓webView(_ webView: WKWebView, requestMediaCapturePermissionFor origin: WKSecurityOrigin,
                             initiatedByFrame frame: WKFrameInfo, type: WKMediaCaptureType,
                             decisionHandler: @escaping (WKPermissionDecision) -> Void) {
                    decisionHandler(.grant)
                }
            }
            """)),
            .triggers(.init("App/MotionDelegate.m", """
            @implementation MotionDelegate
            ↓- (void)webView:(WKWebView *)webView requestDeviceOrientationAndMotionPermissionForOrigin:(WKSecurityOrigin *)origin initiatedByFrame:(WKFrameInfo *)frame decisionHandler:(void (^)(WKPermissionDecision))decisionHandler {
                decisionHandler(WKPermissionDecisionGrant);
            }
            @end
            """)),
            .triggers(.init("App/CallViewController.swift", """
            extension CallViewController: WKUIDelegate {
                func ↓webView(_ webView: WKWebView, requestMediaCapturePermissionFor origin: WKSecurityOrigin,
                             initiatedByFrame frame: WKFrameInfo, type: WKMediaCaptureType,
                             decisionHandler: @escaping (WKPermissionDecision) -> Void) {
                    decisionHandler(origin.host == "meet.example.com" ? .grant : .deny)
                }
            }
            """), policy: """
            target: { ios: "15.0" }
            webview:
              permissions:
                camera: [meet.example.com]
            """),
            .triggers(.init("App/CallPage.swift", """
            func makePage() -> WebPage {
                var configuration = WebPage.Configuration()
                ↓configuration.deviceSensorAuthorization = .init(decision: .grant)
                return WebPage(configuration: configuration)
            }
            """)),
            .passes(.init("App/WebViewController.swift", """
            extension WebViewController: WKUIDelegate {
                func webView(_ webView: WKWebView, requestMediaCapturePermissionFor origin: WKSecurityOrigin,
                             initiatedByFrame frame: WKFrameInfo, type: WKMediaCaptureType,
                             decisionHandler: @escaping (WKPermissionDecision) -> Void) {
                    guard frame.isMainFrame, origin.protocol == "https", origin.host == "meet.example.com" else {
                        return decisionHandler(.deny)
                    }
                    decisionHandler(.grant)
                }
                func webView(_ webView: WKWebView, requestDeviceOrientationAndMotionPermissionFor origin: WKSecurityOrigin,
                             initiatedByFrame frame: WKFrameInfo, decisionHandler: @escaping (WKPermissionDecision) -> Void) {
                    decisionHandler(.prompt)
                }
            }
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        for fact in app.facts() {
            guard case .delegate(let method) = fact.kind, method.grants else { continue }
            let what: String
            let kinds: [PermissionKind]
            switch method.role {
            case .mediaCapturePermission: (what, kinds) = ("the camera and microphone", [.camera, .microphone])
            case .deviceOrientationPermission: (what, kinds) = ("motion and orientation sensors", [.deviceMotion])
            default: continue
            }
            if let declared = kinds.compactMap({ app.policy?.webView?.permission($0) }).first {
                let said = declared.rule == .deny ? "deny" : declared.rule == .ask ? "ask" : "only the origins it lists may ask"
                context.report("the UI delegate grants \(what) without asking the user, but the policy says \(declared.kind.rawValue): \(said)",
                               at: fact.site, hint: "answer with PermissionDecider(policy:), which asks the user or refuses as webview.permissions says",
                               notes: [Diagnostic.Note("the policy says it here", at: declared.location)])
                continue
            }
            guard !method.readsRequester else { continue }
            context.report("the UI delegate grants \(what) to every origin and frame that asks, without a prompt: any page or iframe the view shows gets them",
                           at: fact.site, hint: "grant only when the origin is one the app serves (origin.host, frame.isMainFrame), else answer .prompt or .deny")
        }
        // A page's `DeviceSensorAuthorization(decision: .grant)`: one answer for every request.
        for (fact, setting) in app.settings(.deviceSensorAuthorization) where setting.grantsEveryRequest {
            context.report("the page's deviceSensorAuthorization grants the camera, the microphone and motion sensors to every origin and frame that asks, without a prompt",
                           at: fact.site, hint: "answer with PermissionDecider(policy:) in DeviceSensorAuthorization { permission, frame, origin in … }, or .prompt",
                           notes: app.policy?.webView?.permissions.map { [Diagnostic.Note("the policy's permissions are here", at: $0.location)] } ?? [])
        }
    }
}
