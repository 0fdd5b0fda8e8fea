#if canImport(WebKit)
import WebKit
import WebPolicyRuntime

extension ContentWorldName {
    /// `WKContentWorld`: `.page`, `.defaultClient`, or a world of this name.
    var webKitWorld: WKContentWorld {
        if self == .page { return .page }
        if self == .client { return .defaultClient }
        return .world(name: name)
    }
}

extension ReceivedMessage {
    /// What the gate needs of a `WKScriptMessage`: its frame's security origin and whether
    /// that frame is the main frame (WebKit fills `frameInfo` from the posting frame).
    init(_ message: WKScriptMessage, world: ContentWorldName) {
        let origin = message.frameInfo.securityOrigin
        self.init(name: message.name, body: message.body, origin: FrameOrigin(scheme: origin.protocol, host: origin.host, port: origin.port),
                  isMainFrame: message.frameInfo.isMainFrame, world: world)
    }
}

extension WKUserContentController: MessageHandlerRegistry {
    public func addHandler(named name: String, in world: ContentWorldName, receive: @escaping @MainActor @Sendable (ReceivedMessage) -> Void) {
        add(GatedHandler(world: world, receive: receive), contentWorld: world.webKitWorld, name: name)
    }

    public func addReplyHandler(named name: String, in world: ContentWorldName,
                                receive: @escaping @MainActor @Sendable (ReceivedMessage, @escaping @MainActor @Sendable (Any?, String?) -> Void) -> Void) {
        addScriptMessageHandler(GatedReplyHandler(world: world, receive: receive), contentWorld: world.webKitWorld, name: name)
    }
}

/// WebKit delivers script messages on the main thread.
private final class GatedHandler: NSObject, WKScriptMessageHandler {
    let world: ContentWorldName
    let receive: @MainActor @Sendable (ReceivedMessage) -> Void

    init(world: ContentWorldName, receive: @escaping @MainActor @Sendable (ReceivedMessage) -> Void) {
        self.world = world
        self.receive = receive
    }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        let received = ReceivedMessage(message, world: world)
        MainActor.assumeIsolated { receive(received) }
    }
}

private final class GatedReplyHandler: NSObject, WKScriptMessageHandlerWithReply {
    let world: ContentWorldName
    let receive: @MainActor @Sendable (ReceivedMessage, @escaping @MainActor @Sendable (Any?, String?) -> Void) -> Void

    init(world: ContentWorldName, receive: @escaping @MainActor @Sendable (ReceivedMessage, @escaping @MainActor @Sendable (Any?, String?) -> Void) -> Void) {
        self.world = world
        self.receive = receive
    }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage, replyHandler: @escaping (Any?, String?) -> Void) {
        let received = ReceivedMessage(message, world: world)
        MainActor.assumeIsolated { receive(received) { value, error in replyHandler(value, error) } }
    }
}

extension WKWebViewConfiguration: WebViewConfigurable {
    public var allowsContentJavaScript: Bool {
        get { defaultWebpagePreferences.allowsContentJavaScript }
        set { defaultWebpagePreferences.allowsContentJavaScript = newValue }
    }

    public var javaScriptCanOpenWindowsAutomatically: Bool {
        get { preferences.javaScriptCanOpenWindowsAutomatically }
        set { preferences.javaScriptCanOpenWindowsAutomatically = newValue }
    }

    public var fraudulentWebsiteWarning: Bool {
        get { preferences.isFraudulentWebsiteWarningEnabled }
        set { preferences.isFraudulentWebsiteWarningEnabled = newValue }
    }

    public var dataDetectors: [DataDetector] {
        get {
            #if os(iOS)
            return DataDetector.allCases.filter { $0 != .all && dataDetectorTypes.contains($0.webKitType) }
            #else
            return []
            #endif
        }
        set {
            #if os(iOS)
            dataDetectorTypes = newValue.reduce(into: WKDataDetectorTypes()) { $0.insert($1.webKitType) }
            #endif
        }
    }
}

#if os(iOS)
extension DataDetector {
    var webKitType: WKDataDetectorTypes {
        switch self {
        case .phoneNumber: return .phoneNumber
        case .link: return .link
        case .address: return .address
        case .calendarEvent: return .calendarEvent
        case .trackingNumber: return .trackingNumber
        case .flightNumber: return .flightNumber
        case .lookupSuggestion: return .lookupSuggestion
        case .all: return .all
        }
    }
}
#endif

extension WKWebView: InspectionTarget {
    public func applyInspectable(_ inspectable: Bool) {
        if #available(iOS 16.4, macOS 13.3, *) {
            isInspectable = inspectable
        }
    }
}
#endif
