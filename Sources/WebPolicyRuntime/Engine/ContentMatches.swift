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

    /// The texts of a common match's acting rules — selectors and notifications — which a
    /// request's own lists leave out, by their number in the engine's string table (each
    /// distinct text has one), and as text for rules of the app's other lists.
    package final class CommonTexts: Sendable {
        let engine: ContentRuleEngine
        /// For each string of the engine: 1 when a common rule hides it, 2 when one posts it.
        private let marks: [UInt8]
        let hidden: Set<String>
        let notifications: Set<String>

        package init(_ common: ContentRuleEngine.UniversalMatch, of engine: ContentRuleEngine) {
            self.engine = engine
            var marks = [UInt8](repeating: 0, count: engine.textCount)
            var hidden = Set<String>(), notifications = Set<String>()
            for rule in common.commonSurviving {
                let number = engine.textNumber(of: rule)
                guard number >= 0 else { continue }
                switch engine.action(of: rule) {
                case .cssDisplayNone:
                    marks[Int(number)] |= 1
                    if let text = engine.selector(of: rule) { hidden.insert(text) }
                case .notify:
                    marks[Int(number)] |= 2
                    if let text = engine.notification(of: rule) { notifications.insert(text) }
                default: break
                }
            }
            self.marks = marks
            self.hidden = hidden
            self.notifications = notifications
        }

        func holds(_ number: Int32, _ mark: UInt8) -> Bool { marks[Int(number)] & mark != 0 }
    }

    /// A text of a request's own lists: by its number in the first list's string table, or,
    /// for a rule of another list, as text.
    package enum OwnText: Equatable, Sendable {
        case numbered(Int32)
        case text(String)

        var isFromAnotherList: Bool {
            if case .text = self { return true }
            return false
        }
    }

    /// What the request adds to the common part of its page's universal rules (`shared`): its
    /// matched rules, hidden selectors and notifications without those the shared record lists,
    /// each text once, in list and rule order. Computed on rule positions and string numbers,
    /// never on the hundreds of shared rules' texts: making them unique as strings for each
    /// request (a ping's second check holds the common rules again) was most of `--format
    /// json`'s time.
    package func own(beyond common: ContentRuleEngine.UniversalMatch, commonTexts: CommonTexts)
        -> (matched: [RuleOrigin], hidden: [OwnText], notifications: [OwnText]) {
        guard let first = lists.first else { return ([], [], []) }
        var matched = first.matched(beyond: common).map(first.engine.origin(of:))
        matched += lists.dropFirst().flatMap(\.matchedOrigins)
        if combination == .ping, lists.count == 1, second.count == 1, second[0].engine === first.engine, first.engine.originsAreDistinct {
            // A ping's second check of the one list: its rules the first did not match, by
            // position (each rule of the list has an origin of its own).
            matched += ContentRuleEngine.difference(second[0].matched, first.matched).map(first.engine.origin(of:))
        } else if combination == .ping, !second.isEmpty {
            let more = second.flatMap(\.matchedOrigins)
            let seen = Set(lists.flatMap(\.matchedOrigins))
            matched += more.filter { !seen.contains($0) }
        } else {
            matched += second.flatMap(\.matchedOrigins)
        }
        var texts = OwnTextCollector(engine: first.engine, common: commonTexts, hides: has(.cssDisplayNone), notifies: has(.notify))
        // The acting rules beyond the common ones, in list and rule order.
        for rule in first.surviving(beyond: common) { texts.add(rule, of: first.engine) }
        for list in lists.dropFirst() { for rule in list.surviving { texts.add(rule, of: list.engine) } }
        if combination == .ping { for list in second { for rule in list.surviving { texts.add(rule, of: list.engine) } } }
        return (matched, texts.hidden, texts.notifications)
    }

    /// Collects `own`'s texts: each once, none the common rules give.
    private struct OwnTextCollector {
        let engine: ContentRuleEngine
        let common: CommonTexts
        let hides: Bool
        let notifies: Bool
        var hidden: [OwnText] = []
        var notifications: [OwnText] = []

        init(engine: ContentRuleEngine, common: CommonTexts, hides: Bool, notifies: Bool) {
            self.engine = engine
            self.common = common
            self.hides = hides
            self.notifies = notifies
        }

        mutating func add(_ rule: Int32, of ruleEngine: ContentRuleEngine) {
            switch ruleEngine.action(of: rule) {
            case .cssDisplayNone where hides: add(rule, of: ruleEngine, mark: 1, to: &hidden, known: common.hidden)
            case .notify where notifies: add(rule, of: ruleEngine, mark: 2, to: &notifications, known: common.notifications)
            default: break
            }
        }

        private func add(_ rule: Int32, of ruleEngine: ContentRuleEngine, mark: UInt8, to texts: inout [OwnText], known: Set<String>) {
            let number = ruleEngine.textNumber(of: rule)
            guard number >= 0 else { return }
            let text: OwnText
            if ruleEngine === engine && common.engine === engine {
                // One table: equal texts have equal numbers.
                guard !common.holds(number, mark) else { return }
                text = .numbered(number)
            } else {
                guard let string = ruleEngine.text(number), !known.contains(string) else { return }
                text = .text(string)
            }
            guard !contains(text, in: texts) else { return }
            texts.append(text)
        }

        /// Whether `texts` holds `text`: by number within the first list's table, by content
        /// once another list's texts are among them.
        private func contains(_ text: OwnText, in texts: [OwnText]) -> Bool {
            if texts.contains(text) { return true }
            guard text.isFromAnotherList || texts.contains(where: \.isFromAnotherList) else { return false }
            let content = string(text)
            return texts.contains { string($0) == content }
        }

        func string(_ text: OwnText) -> String {
            switch text {
            case .numbered(let number): return engine.text(number) ?? ""
            case .text(let string): return string
            }
        }
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
