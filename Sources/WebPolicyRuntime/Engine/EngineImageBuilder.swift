import URLFilter

/// A rule's trigger flags as an engine image keeps them: bit masks of the concrete resource
/// types, load types and contexts (`FlagMask`; 0 = all) and the request method's position
/// (-1: any).
struct RuleFlags: BitwiseCopyable, Sendable {
    var resourceTypes: UInt32
    var loadTypes: UInt8
    var loadContexts: UInt8
    var method: Int8
    /// Written as zero: an image's bytes must not depend on what memory held before.
    var padding: UInt8 = 0
}

/// A rule's condition: its kind's position in `ConditionKind.allCases` (-1: none) and its
/// entries, `start..<end` of the top-URL or frame-URL matcher.
struct RuleCondition: BitwiseCopyable, Sendable {
    var start: Int32
    /// The kind's position plus one in the top four bits (0: none), the entry count below.
    private var kindAndCount: UInt32

    init(kind: Int32, start: Int32, end: Int32) {
        self.start = start
        kindAndCount = UInt32(bitPattern: kind + 1) << 28 | UInt32(max(end - start, 0)) & 0x0FFF_FFFF
    }

    var kind: Int32 { Int32(kindAndCount >> 28) - 1 }
    var end: Int32 { start &+ Int32(kindAndCount & 0x0FFF_FFFF) }

    static let none = RuleCondition(kind: -1, start: 0, end: 0)
    static let ifFrameURL = Int32(ConditionKind.allCases.firstIndex(of: .ifFrameURL)!)
    static let unlessFrameURL = Int32(ConditionKind.allCases.firstIndex(of: .unlessFrameURL)!)
    private static let ifKinds = ConditionKind.allCases.map(\.isIf)
    private static let topKinds = ConditionKind.allCases.map { $0 == .ifDomain || $0 == .ifTopURL }

    var isFrame: Bool { kind == Self.ifFrameURL || kind == Self.unlessFrameURL }
    /// Checked against the table's size when the image was read.
    var isIf: Bool { Self.ifKinds[Int(kind)] }
    /// `if-domain` and `if-top-url`: the action needs a top-URL entry to match.
    var needsTopMatch: Bool { kind >= 0 && Self.topKinds[Int(kind)] }
}

/// Builds the image of one content-rule list's engine from its WebKit JSON rules: every table
/// `ContentRuleEngine` reads, in the order it reads them. The expensive part of loading a real
/// list — parsing 100,000 url-filters, compiling thousands of automata, indexing host names —
/// happens here once; an image written to a file spares an app or a later run all of it.
enum EngineImageBuilder {
    static func body<Rule: RuleJSON>(rules json: consuming [(rule: Rule, origin: RuleOrigin)]) -> [UInt8] {
        var filterTexts: [(text: String, caseSensitive: Bool)] = []
        var topPatterns: [(text: String, caseSensitive: Bool)] = []
        var framePatterns: [(text: String, caseSensitive: Bool)] = []
        var actions: [UInt8] = []
        var arguments: [Int32] = []
        var origins: [OriginRecord] = []
        // Where origins are predictable — indexes counting up from the first, each range one
        // column (locations from a manifest) — the image keeps no table of them.
        var originIndexes: [Int32] = []
        var originEnds: [OriginEnd] = []
        var endsFollowStarts = true
        var sources: [OriginSource] = []
        var sourceNumbers: [OriginSource: Int32] = [:]
        var strings = StringTable.Builder()
        var flags: [RuleFlags] = []
        var conditions: [RuleCondition] = []
        var ruleOfTopPattern: [Int32] = []
        // The last rule's source: a list's rules share one, and hashing its strings again for
        // every rule found the same number every time.
        var lastSource: (id: String?, path: String?, expansion: String?, number: Int32)?
        for (value, origin) in json {
            var trigger: Rule?, action: Rule?
            value.forEachMember { key, member in
                if key == "trigger" { trigger = member } else if key == "action" { action = member }
            }
            // The trigger read in one pass over its members (the last of a repeated key wins,
            // as `member` finds it), instead of a search for each key WebKit reads.
            var read = TriggerFields<Rule>()
            trigger?.forEachMember { key, member in read.take(key, member) }
            let type = ContentActionType(rawValue: action?.member("type")?.stringValue ?? "") ?? .block
            filterTexts.append((read.urlFilter ?? "", read.caseSensitive))
            var condition = RuleCondition.none
            if let (ordinal, entries) = read.condition {
                let kind = ConditionKind.allCases[ordinal]
                let isFrame = kind == .ifFrameURL || kind == .unlessFrameURL
                let conditionCase = (isFrame ? read.frameCaseSensitive : read.topCaseSensitive) ?? false
                // WebKit `getDomainList`: a domain becomes a top-URL regex.
                let parsed = entries.compactMap(\.stringValue).map { (text: kind.takesDomains ? WebKitDomainCondition.regex(for: $0) : $0, caseSensitive: conditionCase) }
                if isFrame {
                    condition = RuleCondition(kind: Int32(ordinal), start: Int32(framePatterns.count), end: Int32(framePatterns.count + parsed.count))
                    framePatterns += parsed
                } else {
                    condition = RuleCondition(kind: Int32(ordinal), start: Int32(topPatterns.count), end: Int32(topPatterns.count + parsed.count))
                    topPatterns += parsed
                    for _ in parsed { ruleOfTopPattern.append(Int32(actions.count)) }
                }
            }
            actions.append(UInt8(type.ordinal))
            switch type {
            case .cssDisplayNone: arguments.append(strings.add(action?.member("selector")?.stringValue))
            case .notify: arguments.append(strings.add(action?.member("notification")?.stringValue))
            default: arguments.append(-1)
            }
            let start = origin.location?.range.start, end = origin.location?.range.end
            let sourceNumber: Int32
            if let last = lastSource, last.id == origin.id, last.path == origin.location?.path, last.expansion == origin.expansion {
                sourceNumber = last.number
            } else {
                let source = OriginSource(id: strings.add(origin.id), path: strings.add(origin.location?.path), expansion: strings.add(origin.expansion))
                if let known = sourceNumbers[source] {
                    sourceNumber = known
                } else {
                    sourceNumber = Int32(sources.count)
                    sourceNumbers[source] = sourceNumber
                    sources.append(source)
                }
                lastSource = (origin.id, origin.location?.path, origin.expansion, sourceNumber)
            }
            origins.append(OriginRecord(source: sourceNumber, startLine: Int32(clamping: start?.line ?? 0), startColumn: Int32(clamping: start?.column ?? 0)))
            originIndexes.append(Int32(clamping: origin.index))
            originEnds.append(OriginEnd(line: Int32(clamping: end?.line ?? 0), column: Int32(clamping: end?.column ?? 0)))
            if let start, end != SourcePosition(line: start.line, column: start.column + 1) { endsFollowStarts = false }
            flags.append(RuleFlags(resourceTypes: read.resourceTypes, loadTypes: UInt8(read.loadTypes), loadContexts: UInt8(read.loadContexts),
                                   method: read.method.flatMap { RequestMethod(rawValue: $0.lowercased()) }.map { Int8($0.ordinal) } ?? -1))
            conditions.append(condition)
        }
        // A blocklist has tens of thousands of filters: parse and compile them on every core.
        // The JSON is read; what follows builds automata and indexes, better without it.
        json = []
        // A blocklist repeats filters (`.*` thousands of times): each distinct text is parsed
        // once, a batch at a time on every core, and the matcher is told which are the same.
        let matcher = Self.matcher(filterTexts)
        filterTexts = []
        var ifTopRulesOfFilter = [[Int32]](repeating: [], count: matcher.filterCount)
        for (rule, filter) in matcher.filterOfPosition.enumerated() where filter >= 0 && conditions[rule].needsTopMatch {
            ifTopRulesOfFilter[Int(filter)].append(Int32(rule))
        }
        // Universal rules leave the per-load path (`includingUniversal: false`): with a
        // condition on the frame they are still checked per load, the rest once per page.
        let universal = matcher.universalID.map { Array(matcher.positions(ofFilter: $0)) } ?? []
        let isFrameCondition = { (rule: Int32) -> Bool in conditions[Int(rule)].isFrame && flags[Int(rule)].method < 0 }
        let pageUniversal = universal.filter { !isFrameCondition($0) }
        let frameUniversal = universal.filter(isFrameCondition)
        let isActivated = { (rule: Int32) -> Bool in conditions[Int(rule)].needsTopMatch && flags[Int(rule)].method < 0 }
        let pageUniversalUnlessActivated = pageUniversal.filter { !isActivated($0) }
        var isActivatedUniversal = [UInt8](repeating: 0, count: actions.count)
        for rule in pageUniversal where isActivated(rule) { isActivatedUniversal[Int(rule)] = 1 }
        let heldAlwaysHold = pageUniversalUnlessActivated.allSatisfy { conditions[Int($0)].kind < 0 }

        var writer = ImageWriter()
        let indexBase = originIndexes.first ?? 0
        let indexesCount = originIndexes.enumerated().allSatisfy { $0.element == indexBase &+ Int32(truncatingIfNeeded: $0.offset) }
        writer.write(scalars: [Int64(actions.count), heldAlwaysHold ? 1 : 0, Int64(indexBase)])
        writer.write(actions)
        writer.write(flags)
        writer.write(conditions)
        writer.write(arguments)
        writer.write(origins)
        writer.write(indexesCount ? [] : originIndexes)
        writer.write(endsFollowStarts ? [] : originEnds)
        writer.write(sources)
        strings.write(into: &writer)
        matcher.write(into: &writer)
        Self.matcher(topPatterns).write(into: &writer)
        Self.matcher(framePatterns).write(into: &writer)
        writer.write(lists: ifTopRulesOfFilter)
        writer.write(ruleOfTopPattern)
        writer.write(pageUniversal)
        writer.write(frameUniversal)
        writer.write(pageUniversalUnlessActivated)
        writer.write(isActivatedUniversal)
        return writer.bytes
    }

    /// A matcher of url-filter texts: equal texts are one filter, parsed once, a batch at a
    /// time on every core, and compiled on every core.
    static func matcher(_ texts: [(text: String, caseSensitive: Bool)]) -> URLFilterMatcher {
        // Keyed by the text and its case as they are: a key string made of both was a string
        // made and freed for every filter.
        struct Key: Hashable {
            var text: String
            var caseSensitive: Bool
        }
        var identityOf: [Key: Int] = [:]
        identityOf.reserveCapacity(texts.count)
        let identities = texts.map { text in
            let key = Key(text: text.text, caseSensitive: text.caseSensitive)
            if let known = identityOf[key] { return known }
            identityOf[key] = identityOf.count
            return identityOf.count - 1
        }
        return URLFilterMatcher(identities: identities, parse: { positions in
            positions.parallelMap(minimumChunk: 64) { URLFilterParser.parse(texts[$0].text, caseSensitive: texts[$0].caseSensitive) }
        }, compile: { $0.parallelMap(minimumChunk: 64, CompiledURLFilter.init) })
    }
}

/// What the engine reads of a rule's trigger, gathered member by member.
struct TriggerFields<Rule: RuleJSON> {
    var urlFilter: String?
    var caseSensitive = false
    var topCaseSensitive: Bool?
    var frameCaseSensitive: Bool?
    /// Masks of the concrete values named (`FlagMask`; 0: absent or empty, every value).
    var resourceTypes: UInt32 = 0
    var loadTypes: UInt32 = 0
    var loadContexts: UInt32 = 0
    var method: String?
    /// The condition members, in order: few rules have any, so an empty array costs nothing.
    var conditionMembers: [(ordinal: Int, value: Rule)] = []

    /// The condition the engine keeps: the first kind in `ConditionKind.allCases`' order
    /// whose member (its last, if repeated) is an array, with its entries (WebKit refuses a
    /// rule with two kinds).
    var condition: (ordinal: Int, entries: [Rule])? {
        guard !conditionMembers.isEmpty else { return nil }
        for ordinal in ConditionKind.allCases.indices {
            guard let last = conditionMembers.last(where: { $0.ordinal == ordinal }) else { continue }
            if let entries = last.value.arrayValue { return (ordinal, entries) }
        }
        return nil
    }

    mutating func take(_ key: String, _ value: Rule) {
        switch key {
        case "url-filter": urlFilter = value.stringValue
        case "url-filter-is-case-sensitive": caseSensitive = value.boolValue ?? false
        case "top-url-filter-is-case-sensitive": topCaseSensitive = value.boolValue
        case "frame-url-filter-is-case-sensitive": frameCaseSensitive = value.boolValue
        case "resource-type": resourceTypes = Self.mask(value, Self.resourceTypeBits)
        case "load-type": loadTypes = Self.mask(value, Self.loadTypeBits)
        case "load-context": loadContexts = Self.mask(value, Self.loadContextBits)
        case "request-method": method = value.stringValue
        default:
            if let ordinal = Self.conditionOrdinals[key] { conditionMembers.append((ordinal, value)) }
        }
    }

    /// The bits of the values an array names; values outside the vocabulary name none.
    private static func mask(_ value: Rule, _ bits: [String: UInt32]) -> UInt32 {
        guard let items = value.arrayValue else { return 0 }
        var mask: UInt32 = 0
        for item in items {
            if let text = item.stringValue, let bit = bits[text] { mask |= bit }
        }
        return mask
    }

    private static var resourceTypeBits: [String: UInt32] { TriggerFieldTables.resourceTypeBits }
    private static var loadTypeBits: [String: UInt32] { TriggerFieldTables.loadTypeBits }
    private static var loadContextBits: [String: UInt32] { TriggerFieldTables.loadContextBits }
    private static var conditionOrdinals: [String: Int] { TriggerFieldTables.conditionOrdinals }
}

/// The vocabularies' bits by name, made once (a generic type cannot hold static stored
/// properties).
enum TriggerFieldTables {
    static func bits<T: RawRepresentable & Ordinal>(_: T.Type, expand: (T) -> [T] = { [$0] }) -> [String: UInt32] where T.RawValue == String {
        Dictionary(uniqueKeysWithValues: T.allCases.map { value in (value.rawValue, expand(value).reduce(0) { $0 | FlagMask.bit($1) }) })
    }

    static let resourceTypeBits = bits(ResourceType.self, expand: ResourceType.expanded)
    static let loadTypeBits = bits(LoadType.self)
    static let loadContextBits = bits(LoadContext.self)
    static let conditionOrdinals = Dictionary(uniqueKeysWithValues: ConditionKind.allCases.enumerated().map { ($0.element.rawValue, $0.offset) })
}
