import URLFilter

/// One load as WebKit's content blockers see it (`ResourceLoadInfo`).
public struct ContentLoad: Sendable {
    public var url: CanonicalURL
    /// A concrete type: never `document`, `raw` (which stand for several).
    public var resourceType: ResourceType
    /// The main document's URL; for a top-level navigation, the URL being loaded.
    public var topURL: CanonicalURL
    /// The URL of the frame that makes the request.
    public var frameURL: CanonicalURL
    /// Whether the initiating frame is the main frame (`load-context`).
    public var isMainFrame: Bool
    /// nil for a method WebKit does not know, which no `request-method` trigger matches.
    public var method: RequestMethod?
    public var isThirdParty: Bool
}

/// Where a rule of a list came from, for "why" in simulate's output.
public struct RuleOrigin: Sendable, Hashable {
    public var index: Int
    public var id: String?
    public var location: SourceLocation?
    public var expansion: String?
}

/// One WebKit content-rule list, compiled for evaluation.
public struct ContentRuleEngine: Sendable {
    struct Rule: Sendable {
        var action: ContentActionType
        var selector: String?
        var notification: String?
        /// Expanded to concrete types; nil = every type.
        var resourceTypes: Set<ResourceType>?
        var loadTypes: Set<LoadType>?
        var loadContexts: Set<LoadContext>?
        var requestMethod: RequestMethod?
        var condition: (kind: ConditionKind, matcher: URLFilterMatcher)?
        var origin: RuleOrigin
    }

    private var rules: [Rule] = []
    private let matcher: URLFilterMatcher

    /// `rules`: WebKit JSON rule objects (as compile writes them, or as an imported list holds
    /// them), each with where it came from.
    public init(rules json: [(rule: JSONValue, origin: RuleOrigin)]) {
        var filters: [URLFilterParseResult] = []
        for (value, origin) in json {
            let trigger = value.member("trigger") ?? .object([])
            let action = value.member("action") ?? .object([])
            let type = ContentActionType(rawValue: action.member("type")?.stringValue ?? "") ?? .block
            let caseSensitive = trigger.member("url-filter-is-case-sensitive")?.boolValue ?? false
            filters.append(URLFilterParser.parse(trigger.member("url-filter")?.stringValue ?? "", caseSensitive: caseSensitive))
            func set<T: RawRepresentable & Hashable>(_ key: String, _: T.Type, expand: (T) -> [T] = { [$0] }) -> Set<T>? where T.RawValue == String {
                guard let items = trigger.member(key)?.arrayValue, !items.isEmpty else { return nil }  // empty = all (WebKit)
                return Set(items.compactMap { $0.stringValue.flatMap(T.init(rawValue:)) }.flatMap(expand))
            }
            var rule = Rule(
                action: type,
                selector: action.member("selector")?.stringValue,
                notification: action.member("notification")?.stringValue,
                resourceTypes: set("resource-type", ResourceType.self, expand: ResourceType.expanded),
                loadTypes: set("load-type", LoadType.self),
                loadContexts: set("load-context", LoadContext.self),
                requestMethod: trigger.member("request-method")?.stringValue.flatMap { RequestMethod(rawValue: $0.lowercased()) },
                origin: origin
            )
            for kind in ConditionKind.allCases {
                guard let entries = trigger.member(kind.rawValue)?.arrayValue else { continue }
                let isFrame = kind == .ifFrameURL || kind == .unlessFrameURL
                let caseKey = isFrame ? "frame-url-filter-is-case-sensitive" : "top-url-filter-is-case-sensitive"
                let conditionCase = trigger.member(caseKey)?.boolValue ?? false
                // WebKit `getDomainList`: a domain becomes a top-URL regex.
                let patterns = entries.compactMap(\.stringValue).map { kind.takesDomains ? WebKitDomainCondition.regex(for: $0) : $0 }
                rule.condition = (kind, URLFilterMatcher(patterns.map { URLFilterParser.parse($0, caseSensitive: conditionCase) }))
                break
            }
            rules.append(rule)
        }
        matcher = URLFilterMatcher(filters)
    }

    public var count: Int { rules.count }

    /// What one list does to a load (WebKit `actionsFromContentRuleList`).
    public struct ListResult: Sendable {
        /// The actions that survive the ignore rules, in rule order.
        public var actions: [(type: ContentActionType, origin: RuleOrigin, selector: String?, notification: String?)] = []
        /// Every rule whose trigger matched, before ignore rules, in rule order.
        public var matched: [RuleOrigin] = []
        /// The ignore-previous-rules that cancelled earlier actions, if any.
        public var ignoredBy: RuleOrigin?
    }

    public func evaluate(_ load: ContentLoad) -> ListResult {
        var result = ListResult()
        var surviving: [Int] = []
        for index in matcher.matches(load.url.requestString) where flagsMatch(rules[index], load) && conditionHolds(rules[index], load) {
            result.matched.append(rules[index].origin)
            surviving.append(index)
        }
        // `ignore-following-rules` first: everything after the first one goes, itself included.
        if let stop = surviving.firstIndex(where: { rules[$0].action == .ignoreFollowingRules }) {
            surviving.removeSubrange(stop...)
        }
        // Then the last `ignore-previous-rules` drops itself and everything before it.
        if let last = surviving.lastIndex(where: { rules[$0].action == .ignorePreviousRules }) {
            result.ignoredBy = rules[surviving[last]].origin
            surviving.removeSubrange(...last)
        }
        for index in surviving {
            let rule = rules[index]
            result.actions.append((rule.action, rule.origin, rule.selector, rule.notification))
        }
        return result
    }

    /// WebKit `interpretTestFlagsAndAppendAction`: a specified flag group must intersect the
    /// load's flags; the request method must be equal.
    private func flagsMatch(_ rule: Rule, _ load: ContentLoad) -> Bool {
        if let types = rule.resourceTypes, !types.contains(load.resourceType) { return false }
        if let loadTypes = rule.loadTypes, !loadTypes.contains(load.isThirdParty ? .thirdParty : .firstParty) { return false }
        if let contexts = rule.loadContexts, !contexts.contains(load.isMainFrame ? .topFrame : .childFrame) { return false }
        if let method = rule.requestMethod, method != load.method { return false }
        return true
    }

    /// `if-*` keeps the action when the top (or frame) URL matches one entry, `unless-*` when it
    /// matches none; domains are top-URL regexes (WebKit `getDomainList`).
    private func conditionHolds(_ rule: Rule, _ load: ContentLoad) -> Bool {
        guard let (kind, matcher) = rule.condition else { return true }
        let isFrame = kind == .ifFrameURL || kind == .unlessFrameURL
        let subject = isFrame ? load.frameURL.description : load.topURL.description
        let matches = !matcher.matches(subject).isEmpty
        switch kind {
        case .ifDomain, .ifTopURL, .ifFrameURL: return matches
        case .unlessDomain, .unlessTopURL, .unlessFrameURL: return !matches
        }
    }
}

extension JSONValue {
    func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }
}

extension JSONNode {
    /// The same value as a `JSONValue` (numbers as integers when whole).
    var jsonValue: JSONValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? .int(Int(number)) : .string(String(number))
        case .string(let text): return .string(text)
        case .array(let items): return .array(items.map(\.jsonValue))
        case .object(let members): return .object(members.map { ($0.key, $0.value.jsonValue) })
        }
    }
}
