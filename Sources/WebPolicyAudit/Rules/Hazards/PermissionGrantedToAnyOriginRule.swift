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
        WebKit asks the UI delegate before a page turns on the camera or microphone \\
        (`webView(_:requestMediaCapturePermissionFor:initiatedByFrame:type:decisionHandler:)`, \\
        iOS 15) or reads motion and orientation (`requestDeviceOrientationAndMotionPermissionFor`); \\
        without the method, it prompts the user (`.prompt`). Answering `.grant` without a look \\
        at `origin` or `frame` gives the device's camera and microphone to every origin the \\
        view ever shows — an advert in an iframe, a page reached by a link — silently. Grant \\
        only to the origins the app serves (`origin.host`, `frame.isMainFrame`), or answer \\
        `.prompt`. The policy has no permissions key yet: a deliberate grant is suppressed \\
        with its reason. Source: Apple, `WKUIDelegate` media-capture and device-orientation \\
        permission methods, `WKPermissionDecision`; audit-checks.md WV8.
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
            guard case .delegate(let method) = fact.kind, method.grants, !method.readsRequester else { continue }
            let what: String
            switch method.role {
            case .mediaCapturePermission: what = "the camera and microphone"
            case .deviceOrientationPermission: what = "motion and orientation sensors"
            default: continue
            }
            context.report("the UI delegate grants \(what) to every origin and frame that asks, without a prompt: any page or iframe the view shows gets them",
                           at: fact.site, hint: "grant only when the origin is one the app serves (origin.host, frame.isMainFrame), else answer .prompt or .deny")
        }
    }
}
