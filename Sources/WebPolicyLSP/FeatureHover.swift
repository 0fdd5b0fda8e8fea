import WebPolicyKit
import WebPolicyRuntime

/// The first iOS whose WebKit knows a content-rule construct — a trigger key, a resource type,
/// an action — and what an older WebKit does with a list that uses it (`WebKitFeature`, the
/// table `webkit-feature-unavailable` checks `target.ios` against).
enum FeatureHover {
    /// Said of a construct every WebKit with content blockers has.
    static let always = "in every WebKit with content blockers (iOS 9 and later; an app's web view loads lists from iOS 11, `WKContentRuleListStore`)"

    static func sentence(_ feature: WebKitFeature) -> String {
        let older: String
        switch feature.onOlderWebKit {
        case .ignored(let means): older = "an older WebKit ignores it: \(means)"
        case .rejects: older = "an older WebKit refuses the whole list"
        }
        return "WebKit: since iOS \(feature.minimumIOS) (\(feature.history)); \(older). `target.ios` below it is `webkit-feature-unavailable`."
    }

    /// A line about a trigger key of a content rule: nil for keys that are not the trigger's.
    static func key(_ key: String, path: [String]) -> String? {
        guard path.first == "content-rules" else { return nil }
        if let feature = WebKitFeature.triggerKey(key) { return sentence(feature) }
        return nil
    }

    /// The hover over a value word — `redirect` after `action:`, `fetch` in a resource-type
    /// list — at `position` on its line: nil when the word is no such construct.
    static func value(at position: SourcePosition, in file: SourceFile) -> String? {
        let line = Array(file.line(position.line))
        guard let around = WordAtCursor.construct.around(position.column - 1, in: line) else { return nil }
        let word = String(String.UnicodeScalarView(line[around])), start = around.lowerBound
        let text = String(String.UnicodeScalarView(line))
        guard let parsed = SchemaCompletion.parse(Substring(text)) else { return nil }
        // The key the value belongs to: this line's (`action: redirect`, `resource-type: [a, b]`),
        // or, for a block list's item, the key above it.
        let path = SchemaCompletion.path(to: position.line, column: parsed.contentStart + 1, in: file)
        let key = parsed.key ?? (parsed.isItem ? path.last { $0 != "[]" } : nil)
        guard path.first == "content-rules" else { return nil }
        // Over the key itself, the key's hover speaks.
        if let written = parsed.key, start < parsed.contentStart + written.count + 1 { return nil }
        switch key {
        case "action", "type":
            guard let action = ContentActionType(rawValue: word) else { return nil }
            return "**action** `\(word)`: \(Self.effect(of: action)) " + (WebKitFeature.action(action).map(sentence) ?? always + ".")
        case "resource-type":
            guard let type = ResourceType(rawValue: word) else { return nil }
            return "**resource type** `\(word)`: " + (WebKitFeature.resourceType(type).map(sentence) ?? always + ".")
        default:
            return nil
        }
    }

    /// What an action does to a load it matches, as WebKit's `ContentExtensionsBackend` applies it.
    static func effect(of action: ContentActionType) -> String {
        switch action {
        case .block: return "stops the load."
        case .blockCookies: return "lets the load go with cookies turned off for it (WebKit: `setAllowCookies(false)`)."
        case .cssDisplayNone: return "hides the page's elements that match the rule's `selector` (a `display: none` style sheet); the load itself goes on."
        case .ignorePreviousRules: return "cancels the actions of every rule before it that matched the load (the last one that matches decides)."
        case .ignoreFollowingRules: return "stops the rules after it from acting on the load (WebKit scans forward and stops at the first)."
        case .makeHTTPS: return "loads an `http:` URL over `https:` instead; a URL with a port of its own, or another scheme, is left alone."
        case .notify: return "tells the app (the rule's `notification`) that the load matched; the load goes on."
        case .redirect: return "sends the load to another URL (the rule's `redirect`)."
        case .modifyHeaders: return "changes the request's or the response's headers (`request-headers`, `response-headers`), in `priority` order."
        }
    }
}
