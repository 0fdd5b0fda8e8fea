#if canImport(WebKit)
import WebKit
import WebPolicyRuntime

extension NavigationDecider {
    /// For the app's `webView(_:decidePolicyFor:decisionHandler:)`. A new window's action
    /// (`targetFrame == nil`) is allowed here so that WebKit asks the UI delegate, where
    /// `WindowDecider` decides it. The app forwards the provisional-navigation callbacks to
    /// `redirects`, which tells a server redirect from the navigation it redirects.
    @MainActor public func decide(_ action: WKNavigationAction, in webView: WKWebView) -> WKNavigationActionPolicy {
        guard let url = action.request.url?.absoluteString, let target = action.targetFrame else { return .allow }
        switch decide(url: url, isMainFrame: target.isMainFrame, currentPage: webView.url?.absoluteString,
                      method: action.request.httpMethod ?? "GET", initiator: initiator(of: action, target: target)) {
        case .allow: return .allow
        case .cancel, .cancelAndOpen: return .cancel
        }
    }

    /// For the async `webView(_:decidePolicyFor:) async -> WKNavigationActionPolicy`: waits
    /// for the web view's preparation first.
    @MainActor public func decide<Report>(_ action: WKNavigationAction, in webView: WKWebView, after gate: ReadinessGate<Report>) async -> WKNavigationActionPolicy {
        guard let url = action.request.url?.absoluteString, let target = action.targetFrame else { return .allow }
        switch await decide(url: url, isMainFrame: target.isMainFrame, currentPage: webView.url?.absoluteString,
                            method: action.request.httpMethod ?? "GET",
                            initiator: initiator(of: action, target: target), after: gate) {
        case .allow: return .allow
        case .cancel, .cancelAndOpen: return .cancel
        }
    }

    @MainActor private func initiator(of action: WKNavigationAction, target: WKFrameInfo) -> NavigationInitiator {
        redirects.initiator(navigationTypeRawValue: action.navigationType.rawValue, isMainFrame: target.isMainFrame)
    }
}

extension WindowDecider {
    /// For the app's `webView(_:createWebViewWith:for:windowFeatures:)`: returns nil — the view
    /// never spawns a second web view — after loading the URL in `webView`, handing it to the
    /// system or refusing it, as the policy says.
    @MainActor public func createWebView(for action: WKNavigationAction, in webView: WKWebView) -> WKWebView? {
        guard let url = action.request.url?.absoluteString else { return nil }
        if case .loadInSameView = decide(url: url, currentPage: webView.url?.absoluteString,
                                         initiator: NavigationInitiator(navigationTypeRawValue: action.navigationType.rawValue)) {
            _ = webView.load(action.request)
        }
        return nil
    }
}

extension PermissionDecider {
    /// For the app's `webView(_:requestMediaCapturePermissionFor:initiatedByFrame:type:
    /// decisionHandler:)` (iOS 15): `.prompt` or `.deny`, as `webview.permissions` says.
    @MainActor public func decide(_ origin: WKSecurityOrigin, frame: WKFrameInfo, type: WKMediaCaptureType) -> WKPermissionDecision {
        answer(decide(mediaCaptureTypeRawValue: type.rawValue, origin: Self.origin(protocol: origin.protocol, host: origin.host, port: origin.port),
                      isMainFrame: frame.isMainFrame))
    }

    /// For `webView(_:requestDeviceOrientationAndMotionPermissionFor:initiatedByFrame:
    /// decisionHandler:)` (iOS 15).
    @MainActor public func decideMotion(_ origin: WKSecurityOrigin, frame: WKFrameInfo) -> WKPermissionDecision {
        answer(decide([.deviceMotion], origin: Self.origin(protocol: origin.protocol, host: origin.host, port: origin.port), isMainFrame: frame.isMainFrame))
    }

    func answer(_ answer: PermissionAnswer) -> WKPermissionDecision {
        switch answer {
        case .prompt: return .prompt
        case .deny: return .deny
        }
    }
}

extension WKWebViewConfiguration: NavigationConfigurable {}

#if canImport(UIKit)
import UIKit

/// Opens URLs with `UIApplication.open`.
public struct ApplicationOpener: ExternalOpener {
    public init() {}
    public func open(_ url: String) {
        guard let url = URL(string: url) else { return }
        Task { @MainActor in UIApplication.shared.open(url) }
    }
}
#endif
#endif
