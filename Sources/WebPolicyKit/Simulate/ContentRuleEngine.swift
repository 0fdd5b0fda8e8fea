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
    /// The strings the matchers run on, built once per load.
    let urlString: String
    let typeBit: UInt32
    let loadTypeBit: UInt32
    let contextBit: UInt32
    let topString: String
    let frameString: String

    public init(url: CanonicalURL, resourceType: ResourceType, topURL: CanonicalURL, frameURL: CanonicalURL, isMainFrame: Bool, method: RequestMethod?, isThirdParty: Bool) {
        self.url = url
        self.resourceType = resourceType
        self.topURL = topURL
        self.frameURL = frameURL
        self.isMainFrame = isMainFrame
        self.method = method
        self.isThirdParty = isThirdParty
        urlString = url.requestString
        typeBit = FlagMask.bit(resourceType)
        loadTypeBit = FlagMask.bit(isThirdParty ? LoadType.thirdParty : .firstParty)
        contextBit = FlagMask.bit(isMainFrame ? LoadContext.topFrame : .childFrame)
        topString = topURL.description
        frameString = frameURL == topURL ? topString : frameURL.description
    }
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
    /// What a matching rule does, and where it came from. Its trigger's flags and condition
    /// live in `flags` and `conditions`, read in the hot loop without reference counting.
    struct Rule: Sendable {
        let action: ContentActionType
        let selector: String?
        let notification: String?
        let origin: RuleOrigin
    }

    private var rules: [Rule] = []
    /// Per rule: bit masks of the concrete types, load types and contexts (`FlagMask`; 0 =
    /// all), and the method.
    private var flags: [(resourceTypes: UInt32, loadTypes: UInt32, loadContexts: UInt32, method: RequestMethod?)] = []
    /// Per rule: its condition, with its entries' positions in `topConditions` or `frameConditions`.
    private var conditions: [(kind: ConditionKind, patterns: Range<Int>)?] = []
    private let matcher: URLFilterMatcher
    /// Every top-URL condition entry (domains as their regexes) of the list in one matcher, and
    /// every frame-URL one in another: run once per distinct URL, as WebKit runs its top-URL
    /// DFA once and caches the result (`populateTopURLActionCacheIfNeeded`).
    private let topConditions: URLFilterMatcher
    private let frameConditions: URLFilterMatcher

    /// Condition results for the last top and frame URLs seen; consecutive requests of a page
    /// share them.
    public struct ConditionCache: Sendable {
        var top: (url: String, matched: [Int])?
        var frame: (url: String, matched: [Int])?
        public init() {}
    }

    /// `rules`: WebKit JSON rule objects (as compile writes them, or as an imported list holds
    /// them), each with where it came from.
    public init(rules json: [(rule: JSONValue, origin: RuleOrigin)]) {
        var filters: [URLFilterParseResult] = []
        var topPatterns: [URLFilterParseResult] = []
        var framePatterns: [URLFilterParseResult] = []
        for (value, origin) in json {
            let trigger = value.member("trigger") ?? .object([])
            let action = value.member("action") ?? .object([])
            let type = ContentActionType(rawValue: action.member("type")?.stringValue ?? "") ?? .block
            let caseSensitive = trigger.member("url-filter-is-case-sensitive")?.boolValue ?? false
            filters.append(URLFilterParser.parse(trigger.member("url-filter")?.stringValue ?? "", caseSensitive: caseSensitive))
            func mask<T: RawRepresentable & CaseIterable & Equatable>(_ key: String, _: T.Type, expand: (T) -> [T] = { [$0] }) -> UInt32 where T.RawValue == String {
                // Absent or empty: every value (WebKit), which a mask of 0 stands for.
                let values = (trigger.member(key)?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(T.init(rawValue:)) }.flatMap(expand)
                return values.reduce(0) { $0 | FlagMask.bit($1) }
            }
            var condition: (kind: ConditionKind, patterns: Range<Int>)?
            for kind in ConditionKind.allCases {
                guard let entries = trigger.member(kind.rawValue)?.arrayValue else { continue }
                let isFrame = kind == .ifFrameURL || kind == .unlessFrameURL
                let caseKey = isFrame ? "frame-url-filter-is-case-sensitive" : "top-url-filter-is-case-sensitive"
                let conditionCase = trigger.member(caseKey)?.boolValue ?? false
                // WebKit `getDomainList`: a domain becomes a top-URL regex.
                let patterns = entries.compactMap(\.stringValue).map { kind.takesDomains ? WebKitDomainCondition.regex(for: $0) : $0 }
                let parsed = patterns.map { URLFilterParser.parse($0, caseSensitive: conditionCase) }
                if isFrame {
                    condition = (kind, framePatterns.count..<(framePatterns.count + parsed.count))
                    framePatterns += parsed
                } else {
                    condition = (kind, topPatterns.count..<(topPatterns.count + parsed.count))
                    topPatterns += parsed
                }
                break
            }
            rules.append(Rule(action: type, selector: action.member("selector")?.stringValue,
                              notification: action.member("notification")?.stringValue, origin: origin))
            flags.append((mask("resource-type", ResourceType.self, expand: ResourceType.expanded), mask("load-type", LoadType.self),
                          mask("load-context", LoadContext.self),
                          trigger.member("request-method")?.stringValue.flatMap { RequestMethod(rawValue: $0.lowercased()) }))
            conditions.append(condition)
        }
        matcher = URLFilterMatcher(filters)
        topConditions = URLFilterMatcher(topPatterns)
        frameConditions = URLFilterMatcher(framePatterns)
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
        var cache = ConditionCache()
        return evaluate(load, cache: &cache)
    }

    public func evaluate(_ load: ContentLoad, cache: inout ConditionCache) -> ListResult {
        var result = ListResult()
        var surviving: [Int] = []
        for index in matcher.matches(load.urlString) where flagsMatch(index, load) && conditionHolds(index, load, cache: &cache) {
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
    private func flagsMatch(_ index: Int, _ load: ContentLoad) -> Bool {
        let rule = flags[index]
        if rule.resourceTypes != 0, rule.resourceTypes & load.typeBit == 0 { return false }
        if rule.loadTypes != 0, rule.loadTypes & load.loadTypeBit == 0 { return false }
        if rule.loadContexts != 0, rule.loadContexts & load.contextBit == 0 { return false }
        if let method = rule.method, method != load.method { return false }
        return true
    }

    /// `if-*` keeps the action when the top (or frame) URL matches one entry, `unless-*` when it
    /// matches none; domains are top-URL regexes (WebKit `getDomainList`).
    private func conditionHolds(_ index: Int, _ load: ContentLoad, cache: inout ConditionCache) -> Bool {
        guard let (kind, patterns) = conditions[index] else { return true }
        let matched: [Int]
        if kind == .ifFrameURL || kind == .unlessFrameURL {
            let url = load.frameString
            if cache.frame?.url != url { cache.frame = (url, frameConditions.matches(url)) }
            matched = cache.frame!.matched
        } else {
            let url = load.topString
            if cache.top?.url != url { cache.top = (url, topConditions.matches(url)) }
            matched = cache.top!.matched
        }
        // `matched` is sorted: is any of the rule's entries in it?
        var low = 0, high = matched.count
        while low < high {
            let middle = (low + high) / 2
            if matched[middle] < patterns.lowerBound { low = middle + 1 } else { high = middle }
        }
        let matches = low < matched.count && matched[low] < patterns.upperBound
        switch kind {
        case .ifDomain, .ifTopURL, .ifFrameURL: return matches
        case .unlessDomain, .unlessTopURL, .unlessFrameURL: return !matches
        }
    }
}

/// One bit per value of a flag vocabulary, by its position in `allCases`.
enum FlagMask {
    static func bit<T: CaseIterable & Equatable>(_ value: T) -> UInt32 {
        UInt32(1) << UInt32(T.allCases.firstIndex(of: value).map { T.allCases.distance(from: T.allCases.startIndex, to: $0) } ?? 0)
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
