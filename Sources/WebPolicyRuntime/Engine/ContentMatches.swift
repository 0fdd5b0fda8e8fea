/// What content rules did to one request: each list's result of each check WebKit makes of
/// the load, as rule positions. Origins, selectors and notifications are looked up only when
/// an output asks, so a request that meets the 280 universal rules of a real blocklist costs a
/// few shared arrays, not 280 of everything.
public struct ContentMatches: Sendable {
    /// How the checks combine (docs/semantics.md).
    enum Combination: Sendable {
        /// One check: most loads.
        case single
        /// A hyperlink-auditing ping: checked as `ping`, then as `other` without the fragment;
        /// either check's actions apply.
        case ping
        /// `window.open`: the opener's check blocked it; only its blocks count.
        case popupBlocked
        /// `window.open`: the opener's check let it through; the new window's navigation
        /// check decides.
        case popupNavigated
    }

    /// The first check's result per list, in list order.
    public internal(set) var lists: [ContentRuleEngine.ListResult] = []
    /// A ping's or popup's second check, per list.
    public internal(set) var second: [ContentRuleEngine.ListResult] = []
    var combination = Combination.single

    /// The results whose surviving rules act on the load.
    private var acting: [ContentRuleEngine.ListResult] {
        switch combination {
        case .single, .popupBlocked: return lists
        case .ping: return lists + second
        case .popupNavigated: return second
        }
    }

    /// The surviving rules, in list and rule order (a blocked popup: its blocks only).
    private var survivingRules: [(engine: ContentRuleEngine, rule: Int32)] {
        acting.flatMap { list in
            list.surviving.lazy.filter { self.combination != .popupBlocked || list.engine.action(of: $0) == .block }.map { (list.engine, $0) }
        }
    }

    /// The acting results' summaries and engines, in order, without building an array of them
    /// or copying a result (a copy retains each of its arrays): this runs for every request.
    private func forEachActing(_ body: (ContentRuleEngine.ActionSummary, ContentRuleEngine) -> Bool) {
        if combination != .popupNavigated {
            for index in lists.indices where !body(lists[index].summary, lists[index].engine) { return }
        }
        if combination == .ping || combination == .popupNavigated {
            for index in second.indices where !body(second[index].summary, second[index].engine) { return }
        }
    }

    func has(_ type: ContentActionType) -> Bool {
        if combination == .popupBlocked { return type == .block }
        var found = false
        forEachActing { summary, _ in
            found = summary.has(type)
            return !found
        }
        return found
    }

    /// The first surviving rule of a type, in list order.
    func first(_ type: ContentActionType) -> RuleOrigin? {
        var origin: RuleOrigin?
        forEachActing { summary, engine in
            let rule = type == .block ? summary.firstBlock : type == .makeHTTPS ? summary.firstUpgrade : -1
            if rule >= 0 { origin = engine.origin(of: rule) }
            return origin == nil
        }
        return origin
    }

    /// The surviving actions, in the order block, block-cookies, css-display-none, make-https,
    /// notify.
    public var actions: [ContentActionType] {
        [.block, .blockCookies, .cssDisplayNone, .makeHTTPS, .notify].filter(has)
    }

    /// Every rule whose trigger matched, in order, before ignore rules; a ping's second check
    /// adds only rules the first did not match.
    public var matchedRules: [RuleOrigin] {
        var origins = lists.flatMap(\.matchedOrigins)
        let more = second.flatMap(\.matchedOrigins)
        if combination == .ping {
            origins += more.filter { rule in !origins.contains(rule) }
        } else {
            origins += more
        }
        return origins
    }

    /// The first `ignore-previous-rules` that cancelled earlier matches, in check and list order.
    public var cancelledBy: RuleOrigin? {
        (lists + second).lazy.compactMap(\.ignoredByOrigin).first
    }

    /// Selectors the surviving `css-display-none` rules hide, each once, in rule order.
    public var hiddenSelectors: [String] {
        has(.cssDisplayNone) ? Self.unique(survivingRules.compactMap { $0.engine.action(of: $0.rule) == .cssDisplayNone ? $0.engine.selector(of: $0.rule) : nil }) : []
    }

    /// The surviving `css-display-none` rules, each with the selector it hides, in rule order.
    public var hidingRules: [(origin: RuleOrigin, selector: String)] {
        guard has(.cssDisplayNone) else { return [] }
        return survivingRules.compactMap { match in
            guard match.engine.action(of: match.rule) == .cssDisplayNone, let selector = match.engine.selector(of: match.rule) else { return nil }
            return (match.engine.origin(of: match.rule), selector)
        }
    }

    /// Notifications the surviving `notify` rules post, each once, in rule order.
    public var notifications: [String] {
        has(.notify) ? Self.unique(survivingRules.compactMap { $0.engine.action(of: $0.rule) == .notify ? $0.engine.notification(of: $0.rule) : nil }) : []
    }

    /// The page's universal rules that this request shares with others of its kind on the
    /// page, when all of them act on it: outputs name them once per page (the first list of
    /// the first check; anything else is listed with the request).
    public var shared: ContentRuleEngine.UniversalMatch? {
        guard combination == .single || combination == .ping else { return nil }
        return lists.first?.shared
    }

    /// The texts `own` worked out last, by the rules they came from: a page's requests act
    /// with the same hiding rules beyond the common ones, and a ping's second check with the
    /// common ones again (hundreds of selectors); making them unique again for each request
    /// was a quarter of `--format json`'s time.
    package struct OwnTextsMemo {
        fileprivate struct Entry {
            var rules: [Int32]
            var engines: [ObjectIdentifier]
            /// The common match the texts were taken beyond, as the caller names it.
            var common: String
            var texts: (hidden: [String], notifications: [String])
        }

        /// The last few (a page's requests and its pings alternate), the newest last.
        fileprivate var entries: [Entry] = []

        package init() {}
    }

    /// `own`, with its texts remembered in `memo` from one request to the next; `commonName`
    /// names the common match and its texts (equal names, equal contents).
    package func own(beyond common: ContentRuleEngine.UniversalMatch, commonTexts: (hidden: Set<String>, notifications: Set<String>), commonName: String,
                     memo: inout OwnTextsMemo) -> (matched: [RuleOrigin], hidden: [String], notifications: [String]) {
        own(beyond: common, commonTexts: commonTexts, memo: &memo, named: commonName)
    }

    /// What the request adds to the common part of its page's universal rules (`shared`): its
    /// matched rules, hidden selectors and notifications without those the shared record lists.
    /// Computed on rule positions, never on the hundreds of shared rules' texts.
    package func own(beyond common: ContentRuleEngine.UniversalMatch, commonTexts: (hidden: Set<String>, notifications: Set<String>)) -> (matched: [RuleOrigin], hidden: [String], notifications: [String]) {
        var memo = OwnTextsMemo()
        return own(beyond: common, commonTexts: commonTexts, memo: &memo, named: nil)
    }

    private func own(beyond common: ContentRuleEngine.UniversalMatch, commonTexts: (hidden: Set<String>, notifications: Set<String>),
                     memo: inout OwnTextsMemo, named commonName: String?) -> (matched: [RuleOrigin], hidden: [String], notifications: [String]) {
        guard let first = lists.first else { return ([], [], []) }
        var matched = ContentRuleEngine.difference(first.matched, common.commonMatched).map(first.engine.origin(of:))
        matched += lists.dropFirst().flatMap(\.matchedOrigins)
        let more = second.flatMap(\.matchedOrigins)
        if combination == .ping, !more.isEmpty {
            let seen = Set(lists.flatMap(\.matchedOrigins))
            matched += more.filter { !seen.contains($0) }
        } else {
            matched += more
        }
        // The acting rules beyond the common ones that give texts, in list and rule order.
        var rules: [(engine: ContentRuleEngine, rule: Int32)] = ContentRuleEngine.difference(first.surviving, common.commonSurviving).map { (first.engine, $0) }
        rules += lists.dropFirst().flatMap { list in list.surviving.map { (list.engine, $0) } }
        if combination == .ping { rules += second.flatMap { list in list.surviving.map { (list.engine, $0) } } }
        rules.removeAll { rule in
            let action = rule.engine.action(of: rule.rule)
            return action != .cssDisplayNone && action != .notify
        }
        let (keyRules, keyEngines) = (rules.map(\.rule), rules.map { ObjectIdentifier($0.engine) })
        if let commonName, let known = memo.entries.last(where: { $0.common == commonName && $0.rules == keyRules && $0.engines == keyEngines }) {
            return (matched, known.texts.hidden, known.texts.notifications)
        }
        func texts(_ type: ContentActionType, _ text: (ContentRuleEngine, Int32) -> String?, leaving known: Set<String>) -> [String] {
            guard has(type) else { return [] }
            return Self.unique(rules.compactMap { $0.engine.action(of: $0.rule) == type ? text($0.engine, $0.rule) : nil }).filter { !known.contains($0) }
        }
        let made = (hidden: texts(.cssDisplayNone, { $0.selector(of: $1) }, leaving: commonTexts.hidden),
                    notifications: texts(.notify, { $0.notification(of: $1) }, leaving: commonTexts.notifications))
        if let commonName {
            memo.entries.append(OwnTextsMemo.Entry(rules: keyRules, engines: keyEngines, common: commonName, texts: made))
            if memo.entries.count > 8 { memo.entries.removeFirst() }
        }
        return (matched, made.hidden, made.notifications)
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
