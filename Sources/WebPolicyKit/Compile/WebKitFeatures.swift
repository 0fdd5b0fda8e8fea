import WebPolicyRuntime

/// When WebKit gained each content-blocker feature, as the iOS version that first ships it,
/// and what an older WebKit does with a list that uses it (research §1.8; AdGuard's
/// SafariConverterLib version matrix). Where the first shipping release is uncertain, the later
/// candidate is taken: a feature an old WebKit silently ignores is worse than a false alarm.
public struct WebKitFeature: Sendable {
    public enum OnOlderWebKit: Sendable {
        /// An unknown trigger key is ignored: the rule applies more widely than written.
        case ignored(String)
        /// An unknown value or action type fails the whole list.
        case rejects(ContentExtensionError)
    }

    public var name: String
    public var minimumIOS: OSVersion
    public var history: String
    public var onOlderWebKit: OnOlderWebKit

    static func key(_ name: String, _ version: OSVersion, _ history: String, ignoredMeans: String) -> WebKitFeature {
        WebKitFeature(name: "'\(name)'", minimumIOS: version, history: history, onOlderWebKit: .ignored(ignoredMeans))
    }

    public static let loadContext = key("load-context", OSVersion(15), "Safari 15, 2021", ignoredMeans: "the rule would apply in every frame")
    public static let ifFrameURL = key("if-frame-url", OSVersion(18), "WebKit 2023, used by AdGuard from Safari 18", ignoredMeans: "the rule would apply in every frame")
    public static let unlessFrameURL = key("unless-frame-url", OSVersion(26), "WebKit PR #36341, November 2024; listed for Safari 26", ignoredMeans: "the rule would apply in every frame")
    public static let frameURLCase = key("frame-url-filter-is-case-sensitive", OSVersion(18), "with if-frame-url", ignoredMeans: "frame-URL conditions would match case-insensitively")
    public static let requestMethod = key("request-method", OSVersion(26), "WebKit PR #43503, April 2025; Safari 26", ignoredMeans: "the rule would apply to every request method")

    /// The feature a trigger key stands for, when the key is not in every WebKit.
    public static func triggerKey(_ key: String) -> WebKitFeature? {
        switch key {
        case "load-context": return loadContext
        case "if-frame-url": return ifFrameURL
        case "unless-frame-url": return unlessFrameURL
        case "frame-url-filter-is-case-sensitive": return frameURLCase
        case "request-method": return requestMethod
        default: return nil
        }
    }

    public static func resourceType(_ type: ResourceType) -> WebKitFeature? {
        let (version, history): (OSVersion, String)
        switch type {
        case .ping: (version, history) = (OSVersion(14), "WebKit bug 197325; AdGuard uses it from Safari 14")
        case .fetch, .websocket, .other, .cspReport: (version, history) = (OSVersion(15), "WebKit bug 222709, Safari 15")
        case .topDocument, .childDocument: (version, history) = (OSVersion(26), "WebKit PR #42722, March 2025; Safari 26")
        default: return nil
        }
        return WebKitFeature(name: "the resource type '\(type.rawValue)'", minimumIOS: version, history: history,
                             onOlderWebKit: .rejects(.jsonInvalidStringInTriggerFlagsArray))
    }

    public static func action(_ type: ContentActionType) -> WebKitFeature? {
        let (version, history): (OSVersion, String)
        switch type {
        case .redirect: (version, history) = (OSVersion(15, 4), "declarativeNetRequest support, Safari 15.4")
        case .modifyHeaders: (version, history) = (OSVersion(16, 4), "with the required 'priority', WebKit PR #5107, October 2022")
        case .ignoreFollowingRules: (version, history) = (OSVersion(26), "WebKit PR #46334, June 2025; Safari 26")
        default: return nil
        }
        return WebKitFeature(name: "the action '\(type.rawValue)'", minimumIOS: version, history: history,
                             onOlderWebKit: .rejects(.jsonInvalidActionType))
    }
}
