// WebKit for SwiftUI (iOS 26, macOS 26): the policy on a `WebPage`. Thin: the decisions are
// `PageNavigationDecider`'s and `PolicySchemeResponder`'s, the settings `pageSettings`, all
// tested on Linux with fakes. Only a Swift 6.2 toolchain (Xcode 26) compiles it; an older one
// has no WebPage and skips this file. Written against WebKit's Swift sources
// (`Source/WebKit/UIProcess/API/Swift`) and Apple's iOS 26 documentation; compiled for iOS
// and macOS by the release workflow's webkit-glue job (Xcode 26), never by the Linux CI.
#if canImport(WebKit) && compiler(>=6.2)
import Foundation
import WebKit
import WebPolicyRuntime

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(watchOS, unavailable)
@available(tvOS, unavailable)
extension WebPage.Configuration {
    /// A page configuration with what the policy sets before the page exists: the App-Bound
    /// limit, the default navigation preferences and flags of `webview:`, and a scheme
    /// handler for every scheme `interception:` serves. A page has no `WKPreferences`: the
    /// `webview:` keys kept there are in `policy.pageSettings.unsupported`. Rule lists,
    /// cookies and bridges take the configuration's content controller and data store
    /// (`preparePolicy`, `ScriptMessageGate`), as for a WKWebView.
    @MainActor public init(policy: RuntimePolicy, bundle: Bundle = .main) {
        self.init()
        let settings = policy.pageSettings
        limitsNavigationsToAppBoundDomains = settings.limitsNavigationsToAppBoundDomains
        upgradeKnownHostsToHTTPS = settings.upgradeKnownHostsToHTTPS
        defaultNavigationPreferences.allowsContentJavaScript = settings.allowsContentJavaScript
        #if os(iOS)
        dataDetectorTypes = settings.dataDetectors.reduce(into: WKDataDetectorTypes()) { $0.insert($1.webKitType) }
        #endif
        defaultNavigationPreferences.apply(settings.navigationPreferences)
        switch settings.dataStore {
        case .default?: websiteDataStore = .default()
        case .nonPersistent?: websiteDataStore = .nonPersistent()
        case .profile?:
            if let text = settings.dataStore?.identifier, let identifier = UUID(uuidString: text) { websiteDataStore = WKWebsiteDataStore(forIdentifier: identifier) }
        case nil: break
        }
        if settings.removesWebExtensionController { webExtensionController = nil }
        // Camera, microphone and motion: asked of the policy (`PermissionDecider`) each time.
        let permissions = PermissionDecider(policy: policy)
        // On the main actor: `WKSecurityOrigin`'s properties are (WK_SWIFT_UI_ACTOR).
        deviceSensorAuthorization = WebPage.DeviceSensorAuthorization { @MainActor permission, frame, origin in
            let requester = PermissionDecider.origin(protocol: origin.protocol, host: origin.host, port: origin.port)
            let answer: PermissionAnswer
            switch permission {
            case .deviceOrientationAndMotion: answer = permissions.decide([.deviceMotion], origin: requester, isMainFrame: frame.isMainFrame)
            case .mediaCapture(let type): answer = permissions.decide(mediaCaptureTypeRawValue: type.rawValue, origin: requester, isMainFrame: frame.isMainFrame)
            @unknown default: answer = .deny(reason: "a permission this runtime does not know")
            }
            return answer == .prompt ? .prompt : .deny
        }
        let plan = SchemeHandlerPlan(policy.manifest)
        for registration in plan.registrations {
            // `URLScheme(_:)` is nil for a scheme WebKit handles itself; the plan has refused those.
            guard let scheme = URLScheme(registration.scheme) else { continue }
            urlSchemeHandlers[scheme] = PolicyPageSchemeHandler(responder: PolicySchemeResponder(package: plan.package(for: registration, resources: bundle.resourceURL)))
        }
    }
}

/// Serves an interception rule's `serve:` folder to a page: the response, then the file's
/// bytes (`URLSchemeTaskResult`), or the error.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(watchOS, unavailable)
@available(tvOS, unavailable)
public struct PolicyPageSchemeHandler: URLSchemeHandler {
    public let responder: PolicySchemeResponder

    public init(responder: PolicySchemeResponder) {
        self.responder = responder
    }

    public func reply(for request: URLRequest) -> AsyncThrowingStream<URLSchemeTaskResult, any Error> {
        let responder = self.responder
        return AsyncThrowingStream { continuation in
            // WebKit asks on the main actor; reading a file is not work for it. WebKit cancels
            // the sequence when it no longer wants the resource, and the read with it.
            let task = Task.detached {
                switch responder.respond(to: request) {
                case .success(let (response, data)):
                    continuation.yield(.response(response))
                    continuation.yield(.data(data))
                    continuation.finish()
                case .failure(let error):
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// The page a decider decides for, known once the page exists (a page takes its decider when
/// it is made).
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(watchOS, unavailable)
@available(tvOS, unavailable)
@MainActor public final class PageReference {
    public weak var page: WebPage?
    public init() {}
}

/// A `WebPage.NavigationDeciding` that decides as the policy says: pages and frames by
/// `navigation:`, a new window (an action without a target frame: a page has no other
/// new-window hook) by `new-windows`, scripts per navigation by `webview.javascript`.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(watchOS, unavailable)
@available(tvOS, unavailable)
public struct PolicyNavigationDecider: WebPage.NavigationDeciding {
    public let decider: PageNavigationDecider
    public let reference: PageReference

    @MainActor public init(policy: RuntimePolicy, opener: ExternalOpener) {
        decider = PageNavigationDecider(policy: policy, opener: opener)
        reference = PageReference()
    }

    @MainActor public mutating func decidePolicy(for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences) async -> WKNavigationActionPolicy {
        guard let url = action.request.url?.absoluteString else { return .cancel }
        let page = reference.page
        switch decider.decide(url: url, target: action.target?.isMainFrame, currentPage: page?.url?.absoluteString,
                              method: action.request.httpMethod ?? "GET", navigationTypeRawValue: action.navigationType.rawValue) {
        case .allow(let javaScript):
            preferences.allowsContentJavaScript = javaScript
            preferences.apply(decider.settings.navigationPreferences)
            return .allow
        case .cancel, .cancelAndOpen:
            return .cancel
        case .cancelAndLoad:
            _ = page?.load(action.request)
            return .cancel
        }
    }
}

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(watchOS, unavailable)
@available(tvOS, unavailable)
extension WebPage {
    /// A page the policy governs: `WebPage.Configuration(policy:)`, a `PolicyNavigationDecider`
    /// that knows its page, and `webview.inspectable`.
    @MainActor public convenience init(policy: RuntimePolicy, opener: ExternalOpener, bundle: Bundle = .main) {
        let decider = PolicyNavigationDecider(policy: policy, opener: opener)
        self.init(configuration: WebPage.Configuration(policy: policy, bundle: bundle), navigationDecider: decider)
        decider.reference.page = self
        isInspectable = policy.pageSettings.isInspectable
    }
}
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(watchOS, unavailable)
@available(tvOS, unavailable)
extension WebPage.NavigationPreferences {
    /// The policy's web-page preferences, by the catalogue's raw values (WebKit's
    /// `WKWebpagePreferences.h` order, which WebKit for SwiftUI's enums keep).
    mutating func apply(_ choices: [String: WebViewChoiceSetting.Choice]) {
        if let lockdown = choices["lockdown"] { isLockdownModeEnabled = lockdown.rawValue == 1 }
        if let https = choices["https-navigation"] {
            let policies: [UpgradeToHTTPSPolicy] = [.keepAsRequested, .automaticFallbackToHTTP, .userMediatedFallbackToHTTP, .errorOnFailure]
            if policies.indices.contains(https.rawValue) { preferredHTTPSNavigationPolicy = policies[https.rawValue] }
        }
        // iOS 26.4's SDK (Swift 6.3) has the restriction mode; before it, lint's webview-key-ios says so.
        #if compiler(>=6.3)
        if let mode = choices["security-restriction-mode"], #available(iOS 26.4, macOS 26.4, visionOS 26.4, *) {
            let modes: [SecurityRestrictionMode] = [.none, .maximizeCompatibility, .lockdown]
            if modes.indices.contains(mode.rawValue) { securityRestrictionMode = modes[mode.rawValue] }
        }
        #endif
    }
}
#endif
