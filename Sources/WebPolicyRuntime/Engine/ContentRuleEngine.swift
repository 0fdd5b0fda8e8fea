import URLFilter

/// One WebKit content-rule list, compiled for evaluation. Its tables live in an engine image
/// (`ImageBytes`) and are used in place: an engine built in this process writes its image and
/// reads it back (`init(rules:)`), an app maps the image `webpolicy compile` wrote
/// (`init(image:)`), and both decide with the same code. A class, immutable once built: the
/// simulator reaches it for every request and must not copy its tables.
public final class ContentRuleEngine: Sendable {
    /// The bytes every table below reads, and which of them are this engine's.
    let storage: ImageBytes
    let body: Range<Int>
    /// The bytes of its parts — rules, url-filter matcher, condition matchers, indexes — for
    /// an image file's header.
    let sectionSizes: [Int]

    /// Per rule: its action (`ContentActionType.ordinal`), its flags (`FlagMask`; 0 = all)
    /// and method, its condition with its entries' positions in `topConditions` or
    /// `frameConditions`, and its selector or notification (in `strings`).
    let actions: FlatTable<UInt8>
    let flags: FlatTable<RuleFlags>
    let conditions: FlatTable<RuleCondition>
    let arguments: FlatTable<Int32>
    let origins: FlatTable<OriginRecord>
    /// Per rule its index, or empty when the indexes count up from `originIndexBase`; per
    /// rule where its range ends, or empty when every range is one column.
    let originIndexes: FlatTable<Int32>
    let originIndexBase: Int
    let originEnds: FlatTable<OriginEnd>
    let originSources: FlatTable<OriginSource>
    let strings: StringTable
    /// Each source's path, made once: every blocked request names its rule's origin, and
    /// making the path's string each time was an allocation for every one of them.
    private let pathOfSource: [String?]
    let matcher: URLFilterMatcher
    /// Every top-URL condition entry (domains as their regexes) of the list in one matcher, and
    /// every frame-URL one in another: run once per distinct URL, as WebKit runs its top-URL
    /// DFA once and caches the result (`populateTopURLActionCacheIfNeeded`).
    let topConditions: URLFilterMatcher
    let frameConditions: URLFilterMatcher

    /// Per url-filter id in `matcher`, its rules whose action needs a top-URL entry to match
    /// (`if-domain`, `if-top-url`); the rest of its rules are the matcher's positions of the
    /// filter. A blocklist may have many rules sharing one filter, each for another site; only
    /// the few whose condition holds on the current page are worth looking at.
    let ifTopRulesOfFilter: FlatLists<Int32>
    /// The rule each `topConditions` entry belongs to.
    let ruleOfTopPattern: FlatTable<Int32>

    /// Rules whose url-filter matches every URL (WebKit's universal actions): those without a
    /// condition or with a condition on the top URL are decided once per page and kind of load
    /// (`pageUniversal`, ascending; `isActivatedUniversal` marks those an `if-*` entry must
    /// activate); those with a frame condition, per load (`frameUniversal`).
    let pageUniversal: FlatTable<Int32>
    let frameUniversal: FlatTable<Int32>
    /// The page-universal rules that hold or not whatever page activates them: all but those
    /// an `if-domain`/`if-top-url` entry activates, which come from the page's active rules.
    let pageUniversalUnlessActivated: FlatTable<Int32>
    /// Per rule: 1 when it is page-universal and activated by an entry.
    let isActivatedUniversal: FlatTable<UInt8>
    /// Whether every one of `pageUniversalUnlessActivated` holds on every page (none has a
    /// condition): then they need no checking, page after page.
    let heldAlwaysHold: Bool
    /// `pageUniversalUnlessActivated` as an array made once, when they always hold: every page
    /// shares this one array, so comparing a page's rules with an earlier page's is a pointer
    /// comparison instead of thousands of numbers.
    private let heldAlways: [Int32]
    /// `heldAlways`'s part of a page's fingerprint, worked out once instead of on every page.
    private let heldAlwaysFingerprint: UInt64

    /// Builds the engine of `rules` — WebKit JSON rule objects (as compile writes them, or as
    /// an imported list holds them), each with where it came from — as its image, and reads
    /// it back.
    public convenience init(rules json: consuming [(rule: JSONValue, origin: RuleOrigin)]) {
        self.init(image: EngineImageBuilder.body(rules: json))
    }

    /// The same from rules as the positioned JSON they were read as: a real list's rules are
    /// not copied into a second tree first (80 ms, and the memory of both, for EasyList).
    public convenience init(ruleNodes json: consuming [(rule: JSONNode, origin: RuleOrigin)]) {
        self.init(image: EngineImageBuilder.body(rules: json))
    }

    private convenience init(image: [UInt8]) {
        let bytes = ImageBytes(copying: image)
        do {
            try self.init(bytes: bytes, body: 0..<bytes.count)
        } catch {
            preconditionFailure("an engine cannot read the image it wrote: \(error)")
        }
    }

    /// Whether a url-filter or condition of a rule is one WebKit's parser refuses (such a
    /// filter never matches here; WebKit refuses the whole list).
    public var refusesAFilter: Bool {
        [matcher, topConditions, frameConditions].contains { $0.filterOfPosition.buffer.contains(-1) }
    }

    /// Reads an engine's tables from `body` of `bytes`, checking each before it is trusted.
    init(bytes: ImageBytes, body: Range<Int>) throws(ImageError) {
        storage = bytes
        self.body = body
        var reader = ImageReader(bytes, range: body)
        let counts = try reader.scalars(3, "the rule counts")
        guard counts[0] >= 0, counts[0] < Int64(Int32.max) else { throw ImageError("the image claims \(counts[0]) rules") }
        let ruleCount = Int(counts[0])
        heldAlwaysHold = counts[1] != 0
        // A range, not abs(): abs(Int64.min) traps (FuzzEngineImage, CI's 25-second pass).
        guard counts[2] > -Int64(Int32.max), counts[2] < Int64(Int32.max) else { throw ImageError("the first rule's index is \(counts[2])") }
        originIndexBase = Int(counts[2])
        actions = try reader.table(UInt8.self, "the rules' actions")
        flags = try reader.table(RuleFlags.self, "the rules' flags")
        conditions = try reader.table(RuleCondition.self, "the rules' conditions")
        arguments = try reader.table(Int32.self, "the rules' selectors and notifications")
        origins = try reader.table(OriginRecord.self, "the rules' origins")
        originIndexes = try reader.table(Int32.self, "the rules' indexes")
        originEnds = try reader.table(OriginEnd.self, "the ends of the rules' origins")
        originSources = try reader.table(OriginSource.self, "the rules' sources")
        strings = try StringTable(reading: &reader)
        let rulesEnd = reader.offset
        matcher = try URLFilterMatcher(reading: &reader)
        let matcherEnd = reader.offset
        topConditions = try URLFilterMatcher(reading: &reader)
        frameConditions = try URLFilterMatcher(reading: &reader)
        let conditionsEnd = reader.offset
        ifTopRulesOfFilter = try reader.lists(Int32.self, "the conditional rules of each filter")
        ruleOfTopPattern = try reader.table(Int32.self, "the rule of each top-URL entry")
        pageUniversal = try reader.table(Int32.self, "the page-universal rules")
        frameUniversal = try reader.table(Int32.self, "the frame-universal rules")
        pageUniversalUnlessActivated = try reader.table(Int32.self, "the page-universal rules no entry activates")
        isActivatedUniversal = try reader.table(UInt8.self, "the activated universal rules")
        heldAlways = heldAlwaysHold ? Array(pageUniversalUnlessActivated) : []
        heldAlwaysFingerprint = Self.fingerprint(heldAlways, from: Self.fingerprintSeed)
        guard reader.isAtEnd else { throw ImageError("the image has bytes after its last table") }
        sectionSizes = [rulesEnd - body.lowerBound, matcherEnd - rulesEnd, conditionsEnd - matcherEnd, body.upperBound - conditionsEnd]
        // Before the tables are checked (every member must be set): a path outside the string
        // table is left out here, and refused there.
        let strings = strings
        var paths: [Int32: String] = [:]
        pathOfSource = originSources.buffer.map { source in
            guard source.path < Int32(strings.count), let path = paths[source.path] ?? strings.string(source.path) else { return nil }
            paths[source.path] = path
            return path
        }
        try checkTables(ruleCount: ruleCount)
    }

    /// Every value that indexes another table, checked against it: a damaged image is refused
    /// here, never read out of bounds later.
    private func checkTables(ruleCount: Int) throws(ImageError) {
        for (name, count) in [("actions", actions.count), ("flags", flags.count), ("conditions", conditions.count),
                              ("selectors and notifications", arguments.count), ("origins", origins.count),
                              ("activated universal rules", isActivatedUniversal.count)] where count != ruleCount {
            throw ImageError("the image has \(count) \(name) for \(ruleCount) rules")
        }
        guard matcher.count == ruleCount else { throw ImageError("the url-filter matcher has \(matcher.count) filters for \(ruleCount) rules") }
        let rules = 0..<Int32(ruleCount)
        try actions.check(0..<UInt8(ContentActionType.allCases.count), "the rules' actions")
        try isActivatedUniversal.check(0..<2, "the activated universal rules")
        try arguments.check(-1..<Int32(strings.count), "the rules' selectors and notifications")
        for flag in flags.buffer where flag.method < -1 || Int(flag.method) >= RequestMethod.allCases.count {
            throw ImageError("a rule's request method is \(flag.method)")
        }
        for condition in conditions.buffer where condition.kind >= 0 {
            let isFrame = condition.kind == RuleCondition.ifFrameURL || condition.kind == RuleCondition.unlessFrameURL
            let entries = isFrame ? frameConditions.count : topConditions.count
            guard condition.kind < Int32(ConditionKind.allCases.count), condition.start >= 0, condition.start <= condition.end, Int(condition.end) <= entries else {
                throw ImageError("a rule's condition lies outside its table")
            }
        }
        for condition in conditions.buffer where condition.kind < -1 { throw ImageError("a rule's condition is of kind \(condition.kind)") }
        let stringRange = -1..<Int32(strings.count)
        for source in originSources.buffer {
            guard stringRange.contains(source.id), stringRange.contains(source.path), stringRange.contains(source.expansion) else {
                throw ImageError("a rule's origin names a string outside the table")
            }
        }
        guard originIndexes.count == 0 || originIndexes.count == ruleCount, originEnds.count == 0 || originEnds.count == ruleCount else {
            throw ImageError("the rules' indexes or ends are listed for another number of rules")
        }
        for origin in origins.buffer where origin.source < 0 || Int(origin.source) >= originSources.count {
            throw ImageError("a rule's origin names source \(origin.source) of \(originSources.count)")
        }
        guard ifTopRulesOfFilter.count == matcher.filterCount else {
            throw ImageError("the rules of each filter are listed for another number of filters")
        }
        try ifTopRulesOfFilter.check(rules, "the conditional rules of each filter")
        guard ruleOfTopPattern.count == topConditions.count else { throw ImageError("the top-URL entries' rules are listed for another number of entries") }
        try ruleOfTopPattern.check(rules, "the rule of each top-URL entry")
        try pageUniversal.check(rules, "the page-universal rules")
        try frameUniversal.check(rules, "the frame-universal rules")
        try pageUniversalUnlessActivated.check(rules, "the page-universal rules no entry activates")
    }

    /// Per page: condition results for the last top and frame URLs seen, and the universal
    /// rules' results for each kind of load on the page. Consecutive requests of a page share
    /// them, as WebKit caches its top-URL actions (`populateTopURLActionCacheIfNeeded`).
    public struct ConditionCache: Sendable {
        var top: (url: String, matched: [Int32], activeIfTopRules: [Int32])?
        var frame: (url: String, matched: [Int32])?
        /// The page-universal rules whose condition holds on `top`, ascending; `heldUniversal`
        /// are those of them that no `if-*` entry activates, the same on most pages.
        var activeUniversal: [Int32] = []
        var heldUniversal: [Int32] = []
        /// The page's activated universal rules: `activeUniversal` less `heldUniversal`.
        var activatedUniversal: [Int32] = []
        /// By kind of load (`loadKey`): what the active universal rules do to such a load. A
        /// page meets a handful of kinds; a list is searched faster than a hash is computed.
        var universal: [(key: UInt64, match: UniversalMatch)] = []
        /// Results of pages before, by their active rules and kind of load: most pages of a
        /// trace have the same active universal rules, and need not work them out again.
        /// (The active rules are the held and the activated ones: those two tell pages apart.)
        var recentUniversal: [(activated: [Int32], held: [Int32], fingerprint: UInt64, key: UInt64, match: UniversalMatch)] = []
        /// A hash of `activatedUniversal` and `heldUniversal`, so that an earlier page's results
        /// are compared rule by rule only when they are likely the same.
        var universalFingerprint: UInt64 = 0
        /// When the held rules are the same on every page (`heldAlwaysHold`): those of them
        /// each kind of load meets, worked out once for all pages.
        var heldByKind: [HeldByKind] = []
        /// Reused from load to load, so that matching allocates nothing.
        var filters: [Int32] = []
        var scratch = URLFilterMatcher.Scratch()
        var candidates: [Int32] = []
        public init() {}
    }

    /// The held universal rules one kind of load meets (`heldAlwaysHold`), the same on every
    /// page: the rules, what they do, and whether an ignore rule is among them.
    struct HeldByKind: Sendable {
        let key: UInt64
        let matched: [Int32]
        let summary: ActionSummary
        let hasIgnoreRules: Bool
    }

    /// What the universal rules of one page do to one kind of load: shared by every request of
    /// the kind on the page, and by every output that refers to it, never copied.
    public final class UniversalMatch: Sendable {
        /// Rule positions, ascending.
        public let matched: [Int32]
        public let surviving: [Int32]
        public let ignoredBy: Int32?
        let summary: ActionSummary
        /// The part that does not depend on which site the page is on (no `if-*` entry
        /// activated it): the same on most pages of a trace, so outputs write it once and
        /// refer to it. Subsets of `matched` and `surviving`.
        public let commonMatched: [Int32]
        public let commonSurviving: [Int32]
        /// `matched` and `surviving` without the common part: what a page's site adds, which
        /// each of its requests' JSON lines lists beside its own rules.
        let matchedBeyondCommon: [Int32]
        let survivingBeyondCommon: [Int32]
        /// Whether an ignore rule is among `matched`: then a load's own matches and these do
        /// not simply add up.
        let hasIgnoreRules: Bool

        init(matched: [Int32], surviving: [Int32], ignoredBy: Int32?, summary: ActionSummary, commonMatched: [Int32], commonSurviving: [Int32]) {
            self.matched = matched
            self.surviving = surviving
            self.ignoredBy = ignoredBy
            self.summary = summary
            self.commonMatched = commonMatched
            self.commonSurviving = commonSurviving
            matchedBeyondCommon = ContentRuleEngine.difference(matched, commonMatched)
            survivingBeyondCommon = ContentRuleEngine.difference(surviving, commonSurviving)
            hasIgnoreRules = ignoredBy != nil || surviving.count < matched.count
        }
    }

    /// Which surviving actions a result holds, and the first block and upgrade (rule
    /// positions; -1 for none): what the verdict needs, without walking the rules again.
    struct ActionSummary: Sendable {
        var kinds: UInt16 = 0
        var firstBlock: Int32 = -1
        var firstUpgrade: Int32 = -1

        init() {}

        /// The actions alone, for a verdict (`ContentRulesStep.countedVerdict`).
        init(kinds: UInt16) {
            self.kinds = kinds
        }

        func has(_ type: ContentActionType) -> Bool { kinds & ActionSummary.bit(type) != 0 }

        /// Takes in the actions of rules that add to these (no ignore rule between them).
        mutating func add(_ other: ActionSummary) {
            kinds |= other.kinds
            if other.firstBlock >= 0, firstBlock < 0 || other.firstBlock < firstBlock { firstBlock = other.firstBlock }
            if other.firstUpgrade >= 0, firstUpgrade < 0 || other.firstUpgrade < firstUpgrade { firstUpgrade = other.firstUpgrade }
        }

        static func bit(_ type: ContentActionType) -> UInt16 { UInt16(FlagMask.bit(type)) }
    }

    /// What one list does to a load (WebKit `actionsFromContentRuleList`), as rule positions.
    public struct ListResult: Sendable {
        public let engine: ContentRuleEngine
        /// The page's universal rules for this kind of load, if any.
        let universal: UniversalMatch?
        /// When no ignore rule is involved, the result is the universal rules plus these
        /// (ascending), merged only when an output asks; otherwise `explicit` holds it.
        let own: [Int32]
        let explicit: (matched: [Int32], surviving: [Int32], ignoredBy: Int32?)?
        /// The page's universal part of the result, when every one of its common surviving
        /// rules survives here too: outputs may refer to it instead of repeating it.
        public let shared: UniversalMatch?
        let summary: ActionSummary

        /// Every rule whose trigger matched, before ignore rules, ascending.
        public var matched: [Int32] { explicit?.matched ?? universal.map { ContentRuleEngine.merge($0.matched, own) } ?? own }
        /// The rules whose actions survive the ignore rules, ascending.
        public var surviving: [Int32] { explicit?.surviving ?? universal.map { ContentRuleEngine.merge($0.surviving, own) } ?? own }
        /// The `ignore-previous-rules` that cancelled earlier actions, if any.
        public var ignoredBy: Int32? { explicit.map { $0.ignoredBy } ?? universal?.ignoredBy }
        public var matchedNothing: Bool { explicit.map { $0.matched.isEmpty } ?? (own.isEmpty && (universal?.matched.isEmpty ?? true)) }

        public var matchedOrigins: [RuleOrigin] { matched.map { engine.origin(of: $0) } }

        /// `matched` without `common`'s common rules; `surviving` likewise. When the result is
        /// `common`'s rules plus its own, that is the universal part's site rules plus its
        /// own, with no walk through the hundreds of common ones.
        func matched(beyond common: UniversalMatch) -> [Int32] {
            guard explicit == nil, let universal, universal === common else { return ContentRuleEngine.difference(matched, common.commonMatched) }
            return ContentRuleEngine.merge(universal.matchedBeyondCommon, ContentRuleEngine.removing(common.commonMatched, from: own))
        }

        func surviving(beyond common: UniversalMatch) -> [Int32] {
            guard explicit == nil, let universal, universal === common else { return ContentRuleEngine.difference(surviving, common.commonSurviving) }
            return ContentRuleEngine.merge(universal.survivingBeyondCommon, ContentRuleEngine.removing(common.commonSurviving, from: own))
        }
        public var ignoredByOrigin: RuleOrigin? { ignoredBy.map { engine.origin(of: $0) } }
    }

    /// Whether no two rules have equal origins: their indexes count up (an imported list's do).
    var originsAreDistinct: Bool { originIndexes.isEmpty }

    /// Where rule `rule` came from, made from the image's numbers when an output asks.
    public func origin(of rule: Int32) -> RuleOrigin {
        let record = origins[Int(rule)]
        let source = originSources[Int(record.source)]
        let location = pathOfSource[Int(record.source)].map { path in
            let start = SourcePosition(line: Int(record.startLine), column: Int(record.startColumn))
            let end = originEnds.isEmpty ? SourcePosition(line: start.line, column: start.column + 1)
                : SourcePosition(line: Int(originEnds[Int(rule)].line), column: Int(originEnds[Int(rule)].column))
            return SourceLocation(path: path, range: SourceRange(start: start, end: end))
        }
        let index = originIndexes.isEmpty ? originIndexBase + Int(rule) : Int(originIndexes[Int(rule)])
        return RuleOrigin(index: index, id: strings.string(source.id), location: location, expansion: strings.string(source.expansion))
    }

    public func action(of rule: Int32) -> ContentActionType { Self.actionOfOrdinal[Int(actions[Int(rule)])] }
    public func selector(of rule: Int32) -> String? { action(of: rule) == .cssDisplayNone ? strings.string(arguments[Int(rule)]) : nil }
    /// The number in the string table of the rule's selector or notification (-1: none):
    /// equal texts have equal numbers.
    func textNumber(of rule: Int32) -> Int32 { arguments[Int(rule)] }
    /// How many strings the table holds (text numbers are below it).
    var textCount: Int { strings.count }
    /// String `number` of the table (nil for -1).
    package func text(_ number: Int32) -> String? { strings.string(number) }
    /// Appends string `number` of the table as a JSON string, without making a `String`.
    package func appendQuotedText(_ number: Int32, to output: inout [UInt8]) { strings.appendQuoted(number, to: &output) }
    public func notification(of rule: Int32) -> String? { action(of: rule) == .notify ? strings.string(arguments[Int(rule)]) : nil }

    /// `ContentActionType.allCases`, made once: an action is stored as its position.
    static let actionOfOrdinal = ContentActionType.allCases
    private static let ignorePrevious = UInt8(ContentActionType.ignorePreviousRules.ordinal)
    private static let ignoreFollowing = UInt8(ContentActionType.ignoreFollowingRules.ordinal)
    private func isIgnoreRule(_ rule: Int32) -> Bool {
        let action = actions[Int(rule)]
        return action == Self.ignorePrevious || action == Self.ignoreFollowing
    }

    public func evaluate(_ load: ContentLoad) -> ListResult {
        var cache = ConditionCache()
        return evaluate(load, cache: &cache)
    }

    public func evaluate(_ load: ContentLoad, cache: inout ConditionCache) -> ListResult {
        var url = load.urlString
        return url.withUTF8 { evaluate(url: $0, load.facts, load.frames, cache: &cache) }
    }

    /// What the list's surviving rules do to a load, as a summary alone: what a counted
    /// simulation needs of a load checked once. The same work as `evaluate`, on the request
    /// URL's bytes (without its fragment) and the load's other facts.
    func summary(url: UnsafeBufferPointer<UInt8>, _ facts: ContentLoad.Facts, _ frames: ContentLoad.Frames, cache: inout ConditionCache) -> ActionSummary {
        let (universal, own) = matches(url: url, facts, frames, cache: &cache)
        // Without `evaluate`'s result for the caller to release when nothing cancels anything.
        if let summary = summaryWithoutIgnoreRules(universal, own) { return summary }
        return outcome(universal, own).summary
    }

    /// `evaluate` of the URL's bytes. The result is made here, not returned as a tuple of its
    /// parts for the caller to wrap: copying that tuple out of `withUTF8` went through the
    /// runtime's generic tuple copy, 1,370 instructions a load (callgrind).
    private func evaluate(url: UnsafeBufferPointer<UInt8>, _ load: ContentLoad.Facts, _ frames: ContentLoad.Frames, cache: inout ConditionCache) -> ListResult {
        let (universal, own) = matches(url: url, load, frames, cache: &cache)
        // Most loads: nothing cancels anything, and the result is the universal part plus
        // the load's own matches, kept apart.
        if let summary = summaryWithoutIgnoreRules(universal, own) {
            return ListResult(engine: self, universal: universal, own: own, explicit: nil, shared: universal, summary: summary)
        }
        return outcome(universal, own)
    }

    /// The page-universal rules' match for this kind of load and the load's own matches.
    @inline(__always)
    private func matches(url: UnsafeBufferPointer<UInt8>, _ load: ContentLoad.Facts, _ frames: ContentLoad.Frames, cache: inout ConditionCache)
        -> (universal: UniversalMatch?, own: [Int32]) {
        refresh(&cache, for: frames)
        let own = specificMatches(load, url: url, &cache)
        return (universalMatch(load, &cache), own)
    }

    /// What the page-universal match and the load's own matches do together when no ignore
    /// rule is among them (nothing cancels anything); nil when one is.
    private func summaryWithoutIgnoreRules(_ universal: UniversalMatch?, _ own: [Int32]) -> ActionSummary? {
        guard !(universal?.hasIgnoreRules ?? false), !own.contains(where: isIgnoreRule) else { return nil }
        var summary = universal?.summary ?? ActionSummary()
        if !own.isEmpty { summary.add(self.summary(of: own)) }
        return summary
    }

    /// The result when an ignore rule is among the matches: the surviving rules of both parts.
    private func outcome(_ universal: UniversalMatch?, _ own: [Int32]) -> ListResult {
        let matched = universal.map { Self.merge($0.matched, own) } ?? own
        let (surviving, ignoredBy) = survivors(of: matched)
        let keepsShared = universal.map { Self.isSubsequence($0.commonSurviving, of: surviving) } ?? false
        return ListResult(engine: self, universal: universal, own: [], explicit: (matched, surviving, ignoredBy), shared: keepsShared ? universal : nil,
                          summary: summary(of: surviving))
    }

    /// The rules other than the page-universal ones whose trigger matches the load, ascending.
    private func specificMatches(_ load: ContentLoad.Facts, url: UnsafeBufferPointer<UInt8>, _ cache: inout ConditionCache) -> [Int32] {
        matcher.matchingFilters(url, into: &cache.filters, scratch: &cache.scratch)
        let filters = cache.filters
        // The candidates' array is the cache's, kept from load to load: one array fewer to
        // allocate and free for every request.
        var candidates = cache.candidates
        cache.candidates = []
        if !candidates.isEmpty { candidates.removeAll(keepingCapacity: true) }
        defer { cache.candidates = candidates }
        for filter in filters {
            let rules = matcher.positions(ofFilter: filter)
            if ifTopRulesOfFilter.listCount(Int(filter)) == 0 {
                candidates += rules
            } else {
                for rule in rules where !conditions[Int(rule)].needsTopMatch { candidates.append(rule) }
            }
        }
        // Rules that need the top URL to match: from the page's active ones or from the
        // filters', whichever list is shorter; either way their condition holds. (The page's
        // list is read only when some filter has such rules: most requests match none.)
        var viaFilters = 0
        for filter in filters { viaFilters += ifTopRulesOfFilter[Int(filter)].count }
        if viaFilters > 0 {
            let active = cache.top?.activeIfTopRules ?? []
            if active.count <= viaFilters {
                for rule in active where Self.sortedContains(filters, matcher.filterOfPosition[Int(rule)]) { candidates.append(rule) }
            } else {
                for filter in filters {
                    for rule in ifTopRulesOfFilter[Int(filter)] where Self.sortedContains(active, rule) { candidates.append(rule) }
                }
            }
        }
        if !frameUniversal.isEmpty { candidates += frameUniversal }
        if filters.count > 1 || viaFilters > 0 || !frameUniversal.isEmpty { candidates.sort() }
        var own: [Int32] = []
        for candidate in candidates where flagsMatch(Int(candidate), load) && conditionHolds(Int(candidate), cache) {
            own.append(candidate)
        }
        return own
    }

    /// The page-universal rules' result for this kind of load, computed once per page and kind.
    private func universalMatch(_ load: ContentLoad.Facts, _ cache: inout ConditionCache) -> UniversalMatch? {
        guard !cache.activeUniversal.isEmpty else { return nil }
        let key = Self.loadKey(load)
        for entry in cache.universal where entry.key == key { return entry.match }
        let fingerprint = cache.universalFingerprint
        if let recent = cache.recentUniversal.first(where: {
            $0.key == key && $0.fingerprint == fingerprint && $0.activated == cache.activatedUniversal && $0.held == cache.heldUniversal
        }) {
            cache.universal.append((key, recent.match))
            return recent.match
        }
        let match = newUniversalMatch(load, key, &cache)
        cache.recentUniversal.append((cache.activatedUniversal, cache.heldUniversal, fingerprint, key, match))
        if cache.recentUniversal.count > 32 { cache.recentUniversal.removeFirst() }
        return match
    }

    private func newUniversalMatch(_ load: ContentLoad.Facts, _ key: UInt64, _ cache: inout ConditionCache) -> UniversalMatch {
        let matched: [Int32]
        var heldMatched: [Int32]?
        // The held rules' part worked out once per kind, and the page's activated ones: when
        // no ignore rule is among either, nothing is cancelled and the result is their union
        // (`withoutIgnoreRules`).
        var parts: (held: HeldByKind, activated: [Int32])?
        if heldAlwaysHold {
            // The held rules a kind of load meets are the same on every page: only the page's
            // activated ones are looked at (the two lists share no rule).
            let held: HeldByKind
            if let known = cache.heldByKind.first(where: { $0.key == key }) {
                held = known
            } else {
                let rules = heldAlways.filter { flagsMatch(Int($0), load) }
                held = HeldByKind(key: key, matched: rules, summary: summary(of: rules), hasIgnoreRules: rules.contains(where: isIgnoreRule))
                cache.heldByKind.append(held)
            }
            let activated = cache.activatedUniversal.filter { flagsMatch(Int($0), load) }
            matched = activated.isEmpty ? held.matched : Self.merge(held.matched, activated)
            heldMatched = held.matched
            parts = (held, activated)
        } else {
            matched = cache.activeUniversal.filter { flagsMatch(Int($0), load) }
        }
        // Kinds of load that meet the same rules share one result.
        if let same = cache.universal.first(where: { $0.match.matched == matched })?.match {
            cache.universal.append((key, same))
            return same
        }
        let common = cache.heldUniversal.count == cache.activeUniversal.count ? matched : (heldMatched ?? cache.heldUniversal.filter { flagsMatch(Int($0), load) })
        let match: UniversalMatch
        if let (held, activated) = parts, !held.hasIgnoreRules, !activated.contains(where: isIgnoreRule) {
            // Every matched rule survives; the common part (the held rules, all in `matched`)
            // survives whole; the summary of a union is the sum of its parts' summaries.
            var summary = held.summary
            summary.add(self.summary(of: activated))
            match = UniversalMatch(matched: matched, surviving: matched, ignoredBy: nil, summary: summary, commonMatched: common, commonSurviving: common)
        } else {
            let (surviving, ignoredBy) = survivors(of: matched)
            let commonSurviving = common.count == matched.count ? surviving : Self.intersection(surviving, common)
            match = UniversalMatch(matched: matched, surviving: surviving, ignoredBy: ignoredBy, summary: summary(of: surviving),
                                   commonMatched: common, commonSurviving: commonSurviving)
        }
        cache.universal.append((key, match))
        return match
    }

    private static var fingerprintSeed: UInt64 { Hashing.fnvOffsetBasis }

    /// FNV-1a over a list's rule numbers (its length in it too), from `hash`: a page's
    /// fingerprint is its activated rules' from its held rules'.
    private static func fingerprint(_ list: [Int32], from hash: UInt64) -> UInt64 {
        var hash = Hashing.fnv1a(hash, UInt64(list.count))
        for value in list { hash = Hashing.fnv1a(hash, UInt64(UInt32(bitPattern: value))) }
        return hash
    }

    /// What tells loads apart for the flags of a trigger: type, party, frame and method.
    private static func loadKey(_ load: ContentLoad.Facts) -> UInt64 {
        UInt64(load.typeBit) | UInt64(load.loadTypeBit) << 32 | UInt64(load.contextBit) << 40
            | UInt64(load.methodOrdinal + 1) << 48
    }

    /// WebKit `actionsFromContentRuleList`: `ignore-following-rules` first (everything after the
    /// first one goes, itself included), then the last `ignore-previous-rules` drops itself and
    /// everything before it.
    private func survivors(of matched: [Int32]) -> (surviving: [Int32], ignoredBy: Int32?) {
        var surviving = matched
        if let stop = surviving.firstIndex(where: { actions[Int($0)] == Self.ignoreFollowing }) {
            surviving.removeSubrange(stop...)
        }
        var ignoredBy: Int32?
        if let last = surviving.lastIndex(where: { actions[Int($0)] == Self.ignorePrevious }) {
            ignoredBy = surviving[last]
            surviving.removeSubrange(...last)
        }
        return (surviving, ignoredBy)
    }

    private func summary(of surviving: [Int32]) -> ActionSummary {
        var summary = ActionSummary()
        for rule in surviving {
            let action = Self.actionOfOrdinal[Int(actions[Int(rule)])]
            summary.kinds |= ActionSummary.bit(action)
            if action == .block, summary.firstBlock < 0 { summary.firstBlock = rule }
            if action == .makeHTTPS, summary.firstUpgrade < 0 { summary.firstUpgrade = rule }
        }
        return summary
    }

    static func merge(_ left: [Int32], _ right: [Int32]) -> [Int32] {
        if left.isEmpty { return right }
        if right.isEmpty { return left }
        // A page's few activated rules into thousands of held ones: each short value found by
        // binary search, and the long side's run before it copied whole.
        let (long, short) = left.count >= right.count ? (left, right) : (right, left)
        var merged: [Int32] = []
        merged.reserveCapacity(left.count + right.count)
        var start = 0
        for value in short {
            var low = start, high = long.count
            while low < high {
                let middle = (low + high) / 2
                if long[middle] < value { low = middle + 1 } else { high = middle }
            }
            merged.append(contentsOf: long[start..<low])
            // A value on both sides goes in once.
            start = low < long.count && long[low] == value ? low + 1 : low
            merged.append(value)
        }
        merged.append(contentsOf: long[start...])
        return merged
    }

    /// The elements of both (ascending).
    static func intersection(_ left: [Int32], _ right: [Int32]) -> [Int32] {
        var result: [Int32] = []
        var index = 0
        for value in left {
            while index < right.count, right[index] < value { index += 1 }
            if index < right.count, right[index] == value { result.append(value) }
        }
        return result
    }

    /// The elements of `left` not in `right` (both ascending).
    static func difference(_ left: [Int32], _ right: [Int32]) -> [Int32] {
        guard !right.isEmpty else { return left }
        var result: [Int32] = []
        var index = 0
        for value in left {
            while index < right.count, right[index] < value { index += 1 }
            if index == right.count || right[index] != value { result.append(value) }
        }
        return result
    }

    /// `few` without the values of `many` (both ascending): each of the few found by binary
    /// search in the many.
    static func removing(_ many: [Int32], from few: [Int32]) -> [Int32] {
        guard !many.isEmpty else { return few }
        return few.filter { value in
            var low = 0, high = many.count
            while low < high {
                let middle = (low + high) / 2
                if many[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low == many.count || many[low] != value
        }
    }

    /// Whether every element of `part` is in `whole` (both ascending).
    private static func isSubsequence(_ part: [Int32], of whole: [Int32]) -> Bool {
        var index = 0
        for value in part {
            while index < whole.count, whole[index] < value { index += 1 }
            guard index < whole.count, whole[index] == value else { return false }
        }
        return true
    }

    /// Runs the condition matchers when the top or frame URL changed since the last load, and
    /// decides which page-universal rules apply on a new top URL.
    private func refresh(_ cache: inout ConditionCache, for frames: ContentLoad.Frames) {
        let newTop = cache.top?.url != frames.top
        if newTop {
            var matched: [Int32] = []
            var active: [Int32] = []
            if topConditions.count > 0 {
                matched = Self.matchedEntries(topConditions, frames.top)
                for pattern in matched {
                    let rule = ruleOfTopPattern[Int(pattern)]
                    if conditions[Int(rule)].needsTopMatch, active.last != rule { active.append(rule) }
                }
            }
            cache.top = (frames.top, matched, active)
        }
        if frameConditions.count > 0, cache.frame?.url != frames.frame {
            cache.frame = (frames.frame, Self.matchedEntries(frameConditions, frames.frame))
        }
        if newTop {
            cache.universal = []
            // A real list has thousands of per-site universal rules: only the page's active
            // ones are looked at, not every one of them on every page.
            let held = heldAlwaysHold ? heldAlways : pageUniversalUnlessActivated.filter { conditionHolds(Int($0), cache) }
            let activated = cache.top!.activeIfTopRules.filter { isActivatedUniversal[Int($0)] != 0 }
            cache.heldUniversal = held
            cache.activatedUniversal = activated
            cache.activeUniversal = activated.isEmpty ? held : Self.merge(held, activated)
            // Thousands of held rules on a real list, the same on every page when they always
            // hold: their part of the hash is the engine's, not worked out page after page.
            let heldPart = heldAlwaysHold ? heldAlwaysFingerprint : Self.fingerprint(held, from: Self.fingerprintSeed)
            cache.universalFingerprint = Self.fingerprint(activated, from: heldPart)
        }
    }

    public var count: Int { actions.count }

    /// The condition entries a URL matches, ascending.
    private static func matchedEntries(_ matcher: URLFilterMatcher, _ url: String) -> [Int32] {
        var url = url
        let filters = url.withUTF8 { matcher.matchingFilters($0) }
        var matched: [Int32] = []
        for filter in filters { matched += matcher.positions(ofFilter: filter) }
        return matched.sorted()
    }

    /// The first index of `sorted` whose value is not below `value`.
    private static func lowerBound(_ sorted: [Int32], _ value: Int32) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private static func sortedContains(_ sorted: [Int32], _ value: Int32) -> Bool {
        let index = lowerBound(sorted, value)
        return index < sorted.count && sorted[index] == value
    }

    /// WebKit `interpretTestFlagsAndAppendAction`: a specified flag group must intersect the
    /// load's flags; the request method must be equal.
    @inline(__always)
    private func flagsMatch(_ index: Int, _ load: ContentLoad.Facts) -> Bool {
        let rule = flags[index]
        if rule.resourceTypes != 0, rule.resourceTypes & load.typeBit == 0 { return false }
        if rule.loadTypes != 0, UInt32(rule.loadTypes) & load.loadTypeBit == 0 { return false }
        if rule.loadContexts != 0, UInt32(rule.loadContexts) & load.contextBit == 0 { return false }
        if rule.method >= 0, Int32(rule.method) != load.methodOrdinal { return false }
        return true
    }

    /// `if-*` keeps the action when the top (or frame) URL matches one entry, `unless-*` when it
    /// matches none; domains are top-URL regexes (WebKit `getDomainList`). The cache is fresh
    /// for this load (`refresh`).
    private func conditionHolds(_ index: Int, _ cache: ConditionCache) -> Bool {
        let condition = conditions[index]
        guard condition.kind >= 0 else { return true }
        // With `request-method`, WebKit 2.50 never finds the rule in its condition matcher
        // (observed, ci/webkit-conformance): an `if-*` condition never holds and an
        // `unless-*` one always does, whatever the URL.
        if flags[index].method >= 0 { return !condition.isIf }
        let matched = (condition.isFrame ? cache.frame?.matched : cache.top?.matched) ?? []
        // `matched` is sorted: is any of the rule's entries in it?
        let first = Self.lowerBound(matched, condition.start)
        let matches = first < matched.count && matched[first] < condition.end
        return condition.isIf ? matches : !matches
    }
}

/// One bit per value of a flag vocabulary, by its position in `allCases`.
package enum FlagMask {
    package static func bit<T: Ordinal>(_ value: T) -> UInt32 { UInt32(1) << UInt32(value.ordinal) }
}

/// The JSON an engine is built from: rules as values (compile's) or as the positioned nodes a
/// list was read as.
package protocol RuleJSON {
    func member(_ key: String) -> Self?
    /// Each member of an object, in order (a duplicate key as often as it is written).
    func forEachMember(_ body: (String, Self) -> Void)
    var stringValue: String? { get }
    var boolValue: Bool? { get }
    var arrayValue: [Self]? { get }
}

extension JSONNode: RuleJSON {
    package var stringValue: String? { string }
    package var boolValue: Bool? { bool }
    package var arrayValue: [JSONNode]? { array }

    package func forEachMember(_ body: (String, JSONNode) -> Void) {
        guard case .object(let members) = value else { return }
        for member in members { body(member.key, member.value) }
    }
}

extension JSONValue: RuleJSON {
    package func forEachMember(_ body: (String, JSONValue) -> Void) {
        guard case .object(let members) = self else { return }
        for (key, value) in members { body(key, value) }
    }

    package func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    package var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }
}

extension JSONNode {
    /// The same value as a `JSONValue` (numbers as integers when whole).
    package var jsonValue: JSONValue {
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
