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
        for (value, origin) in json {
            let trigger = value.member("trigger")
            let action = value.member("action")
            let type = ContentActionType(rawValue: action?.member("type")?.stringValue ?? "") ?? .block
            let caseSensitive = trigger?.member("url-filter-is-case-sensitive")?.boolValue ?? false
            filterTexts.append((trigger?.member("url-filter")?.stringValue ?? "", caseSensitive))
            func mask<T: RawRepresentable & Ordinal>(_ key: String, _: T.Type, expand: (T) -> [T] = { [$0] }) -> UInt32 where T.RawValue == String {
                // Absent or empty: every value (WebKit), which a mask of 0 stands for.
                let values = (trigger?.member(key)?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(T.init(rawValue:)) }.flatMap(expand)
                return values.reduce(0) { $0 | FlagMask.bit($1) }
            }
            var condition = RuleCondition.none
            for (ordinal, kind) in ConditionKind.allCases.enumerated() {
                guard let entries = trigger?.member(kind.rawValue)?.arrayValue else { continue }
                let isFrame = kind == .ifFrameURL || kind == .unlessFrameURL
                let caseKey = isFrame ? "frame-url-filter-is-case-sensitive" : "top-url-filter-is-case-sensitive"
                let conditionCase = trigger?.member(caseKey)?.boolValue ?? false
                // WebKit `getDomainList`: a domain becomes a top-URL regex.
                let patterns = entries.compactMap(\.stringValue).map { kind.takesDomains ? WebKitDomainCondition.regex(for: $0) : $0 }
                let parsed = patterns.map { (text: $0, caseSensitive: conditionCase) }
                if isFrame {
                    condition = RuleCondition(kind: Int32(ordinal), start: Int32(framePatterns.count), end: Int32(framePatterns.count + parsed.count))
                    framePatterns += parsed
                } else {
                    condition = RuleCondition(kind: Int32(ordinal), start: Int32(topPatterns.count), end: Int32(topPatterns.count + parsed.count))
                    topPatterns += parsed
                    ruleOfTopPattern += Array(repeating: Int32(actions.count), count: parsed.count)
                }
                break
            }
            actions.append(UInt8(type.ordinal))
            switch type {
            case .cssDisplayNone: arguments.append(strings.add(action?.member("selector")?.stringValue))
            case .notify: arguments.append(strings.add(action?.member("notification")?.stringValue))
            default: arguments.append(-1)
            }
            let start = origin.location?.range.start, end = origin.location?.range.end
            let source = OriginSource(id: strings.add(origin.id), path: strings.add(origin.location?.path), expansion: strings.add(origin.expansion))
            let sourceNumber: Int32
            if let known = sourceNumbers[source] {
                sourceNumber = known
            } else {
                sourceNumber = Int32(sources.count)
                sourceNumbers[source] = sourceNumber
                sources.append(source)
            }
            origins.append(OriginRecord(source: sourceNumber, startLine: Int32(clamping: start?.line ?? 0), startColumn: Int32(clamping: start?.column ?? 0)))
            originIndexes.append(Int32(clamping: origin.index))
            originEnds.append(OriginEnd(line: Int32(clamping: end?.line ?? 0), column: Int32(clamping: end?.column ?? 0)))
            if let start, end != SourcePosition(line: start.line, column: start.column + 1) { endsFollowStarts = false }
            flags.append(RuleFlags(resourceTypes: mask("resource-type", ResourceType.self, expand: ResourceType.expanded),
                                   loadTypes: UInt8(mask("load-type", LoadType.self)), loadContexts: UInt8(mask("load-context", LoadContext.self)),
                                   method: trigger?.member("request-method")?.stringValue.flatMap { RequestMethod(rawValue: $0.lowercased()) }.map { Int8($0.ordinal) } ?? -1))
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
