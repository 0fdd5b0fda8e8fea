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
    public func apply(_ setting: WebViewBooleanSetting, _ value: Bool) { setBoolean(setting, value) }

    /// By key-value coding on `defaultWebpagePreferences`, asking first whether this OS has the
    /// property (the enums are NSInteger, the Lockdown switch a BOOL: both take an NSNumber).
    public func apply(_ setting: WebViewChoiceSetting, _ choice: WebViewChoiceSetting.Choice) {
        let preferences = defaultWebpagePreferences!
        let name = setting.objectiveCName
        guard preferences.responds(to: NSSelectorFromString("set\(name.prefix(1).uppercased())\(name.dropFirst()):")) else { return }
        preferences.setValue(NSNumber(value: choice.rawValue), forKey: name)
    }

    public func useDataStore(_ store: WebsiteDataStoreChoice) {
        switch store {
        case .default: websiteDataStore = .default()
        case .nonPersistent: websiteDataStore = .nonPersistent()
        case .profile:
            // Before iOS 17 there are no stores by identifier: lint's webview-key-ios says so.
            if #available(iOS 17.0, macOS 14.0, visionOS 1.0, *), let text = store.identifier, let identifier = UUID(uuidString: text) {
                websiteDataStore = WKWebsiteDataStore(forIdentifier: identifier)
            }
        }
    }

    public func removeWebExtensionController() {
        #if compiler(>=6.1)
        if #available(iOS 18.4, macOS 15.4, visionOS 2.4, *) { webExtensionController = nil }
        #endif
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
    public func apply(_ setting: WebViewBooleanSetting, _ value: Bool) { setBoolean(setting, value) }
}

extension NSObject {
    /// Sets a catalogue row by its Objective-C key path (`preferences.elementFullscreenEnabled`),
    /// asking at each step whether this OS has the property: key-value coding on a missing key
    /// raises NSUndefinedKeyException, and an older iOS simply lacks the newer settings.
    fileprivate func setBoolean(_ setting: WebViewBooleanSetting, _ value: Bool) {
        let names = setting.keyPath.split(separator: ".").map(String.init)
        var holder: NSObject = self
        for name in names.dropLast() {
            guard holder.responds(to: NSSelectorFromString(name)), let next = holder.value(forKey: name) as? NSObject else { return missing(setting) }
            holder = next
        }
        let property = names[names.count - 1]
        guard holder.responds(to: NSSelectorFromString("set\(property.prefix(1).uppercased())\(property.dropFirst()):")) else { return missing(setting) }
        holder.setValue(value, forKey: property)
    }

    /// On the iOS that has the property, a row whose key path finds nothing is a mistake in
    /// the catalogue, caught in debug builds; before that iOS it is what the OS does.
    private func missing(_ setting: WebViewBooleanSetting) {
        #if os(iOS)
        let parts = setting.firstIOS.split(separator: ".").compactMap { Int($0) }
        let first = OperatingSystemVersion(majorVersion: parts[0], minorVersion: parts.count > 1 ? parts[1] : 0, patchVersion: 0)
        assert(!ProcessInfo.processInfo.isOperatingSystemAtLeast(first), "webview.\(setting.key): \(type(of: self)) has no \(setting.keyPath)")
        #endif
    }
}
#endif
