import WebPolicyRuntime

/// One WebKit content rule, in WebKit's vocabulary: trigger fields and action fields side by
/// side in one mapping, as the policy writes them.
///
/// Section entries are immutable classes rather than structs: a rule is a record of nearly two
/// kilobytes that dozens of lint passes, the compiler and the simulator read, and a policy may
/// hold 150,000 of them; sharing one reference avoids copying it at every step.
public final class ContentRule: Sendable {
    public let location: SourceLocation
    public let id: LocatedString?
    public let description: LocatedString?
    public let action: Located<ContentActionType>
    public let trigger: Trigger
    /// `css-display-none`
    public let selector: LocatedString?
    /// `notify`
    public let notification: LocatedString?
    /// `redirect`
    public let redirect: Redirect?
    /// `modify-headers`
    public let priority: Located<Int>?
    public let requestHeaders: Located<[HeaderOperation]>?
    public let responseHeaders: Located<[HeaderOperation]>?
    /// What lint worked out of the rule's content, shared by the rule it was moved from.
    let derived: ContentRuleDerived

    public convenience init(
        location: SourceLocation,
        id: LocatedString? = nil,
        description: LocatedString? = nil,
        action: Located<ContentActionType>,
        trigger: Trigger,
        selector: LocatedString? = nil,
        notification: LocatedString? = nil,
        redirect: Redirect? = nil,
        priority: Located<Int>? = nil,
        requestHeaders: Located<[HeaderOperation]>? = nil,
        responseHeaders: Located<[HeaderOperation]>? = nil
    ) {
        self.init(location: location, id: id, description: description, action: action, trigger: trigger, selector: selector, notification: notification,
                  redirect: redirect, priority: priority, requestHeaders: requestHeaders, responseHeaders: responseHeaders, derived: ContentRuleDerived())
    }

    init(
        location: SourceLocation, id: LocatedString?, description: LocatedString?, action: Located<ContentActionType>, trigger: Trigger,
        selector: LocatedString?, notification: LocatedString?, redirect: Redirect?, priority: Located<Int>?,
        requestHeaders: Located<[HeaderOperation]>?, responseHeaders: Located<[HeaderOperation]>?, derived: ContentRuleDerived
    ) {
        self.derived = derived
        self.location = location
        self.id = id
        self.description = description
        self.action = action
        self.trigger = trigger
        self.selector = selector
        self.notification = notification
        self.redirect = redirect
        self.priority = priority
        self.requestHeaders = requestHeaders
        self.responseHeaders = responseHeaders
    }
}

public struct Trigger: Sendable {
    public var urlFilter: LocatedString?
    /// Sugar: hosts that webpolicy compiles to escaped url-filters.
    public var hosts: Located<[LocatedString]>?
    public var urlFilterIsCaseSensitive: Located<Bool>?
    public var topURLFilterIsCaseSensitive: Located<Bool>?
    public var frameURLFilterIsCaseSensitive: Located<Bool>?
    public var resourceTypes: Located<[Located<ResourceType>]>?
    public var loadTypes: Located<[Located<LoadType>]>?
    public var loadContexts: Located<[Located<LoadContext>]>?
    /// WebKit takes one method per trigger; a list is sugar for one rule per method.
    public var requestMethods: Located<[Located<RequestMethod>]>?
    /// In the order written. WebKit allows one per trigger; the lint rule says so.
    public var conditions: [Condition] = []

    public init() {}

    /// Every url-filter regex of this trigger, with whether it is matched case-sensitively:
    /// the `url-filter` itself and the `*-top-url` / `*-frame-url` condition entries.
    public var regexFields: [(text: LocatedString, field: String, caseSensitive: Bool)] {
        var fields: [(LocatedString, String, Bool)] = []
        if let urlFilter { fields.append((urlFilter, "url-filter", urlFilterIsCaseSensitive?.value ?? false)) }
        if conditions.isEmpty { return fields }
        for condition in conditions where !condition.kind.takesDomains {
            let isTop = condition.kind == .ifTopURL || condition.kind == .unlessTopURL
            let caseSensitive = (isTop ? topURLFilterIsCaseSensitive : frameURLFilterIsCaseSensitive)?.value ?? false
            fields += condition.values.map { ($0, condition.kind.rawValue, caseSensitive) }
        }
        return fields
    }
}

public struct Condition: Sendable {
    public var kind: ConditionKind
    public var values: [LocatedString]
    /// From the key to the end of the list.
    public var location: SourceLocation
    /// The list itself.
    public var listLocation: SourceLocation
}

public indirect enum Redirect: Sendable {
    case url(LocatedString)
    case extensionPath(LocatedString)
    case regexSubstitution(LocatedString)
    case transform(URLTransform)
}

public struct URLTransform: Sendable {
    public var location: SourceLocation
    public var scheme: LocatedString?
    public var host: LocatedString?
    public var port: LocatedString?
    public var path: LocatedString?
    public var query: LocatedString?
    public var fragment: LocatedString?
    public var username: LocatedString?
    public var password: LocatedString?
    public var queryTransform: QueryTransform?
}

public struct QueryTransform: Sendable {
    public var location: SourceLocation
    public var removeParameters: Located<[LocatedString]>?
    public var addOrReplaceParameters: Located<[QueryParameter]>?
}

public struct QueryParameter: Sendable {
    public var location: SourceLocation
    public var key: LocatedString
    public var value: LocatedString
    public var replaceOnly: Located<Bool>?
}

public struct HeaderOperation: Sendable {
    public var location: SourceLocation
    public var operation: Located<HeaderOperationType>
    public var header: LocatedString
    public var value: LocatedString?
}
