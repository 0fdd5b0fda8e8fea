// A port of WebKit's url-filter parser (Source/WebCore/contentextensions/URLFilterParser.cpp):
// the `PatternParser` delegate that turns Yarr's tokens into a list of `Term`s, refusing
// everything the content-extension DFA cannot express, and `URLFilterParser::addPattern`, which
// decides the final status.

/// Where in the pattern a problem is, in Unicode scalars from the start of the pattern.
public struct URLFilterSpan: Sendable, Hashable {
    public var offset: Int
    public var length: Int

    public init(offset: Int, length: Int) {
        self.offset = offset
        self.length = max(length, 1)
    }

    init(_ range: Range<Int>) {
        self.init(offset: range.lowerBound, length: range.count)
    }
}

/// Why WebKit would not accept a url-filter, and where.
public struct URLFilterProblem: Sendable, Hashable {
    public var status: URLFilterParseStatus
    public var span: URLFilterSpan
    /// The JavaScriptCore syntax error behind a `.yarrError` status.
    public var syntaxError: YarrSyntaxError?

    public init(status: URLFilterParseStatus, span: URLFilterSpan, syntaxError: YarrSyntaxError? = nil) {
        self.status = status
        self.span = span
        self.syntaxError = syntaxError
    }
}

/// A url-filter as WebKit compiles it: the simplified term list (a leading `.*` stands for an
/// unanchored pattern) and whether the pattern was anchored with `^`.
public struct ParsedURLFilter: Sendable, Hashable {
    public var terms: [Term]
    public var hasBeginningOfLineAssertion: Bool
    public var isCaseSensitive: Bool
}

public enum URLFilterParseResult: Sendable, Hashable {
    /// WebKit compiles the filter into its DFA.
    case filter(ParsedURLFilter)
    /// The filter matches every URL; WebKit accepts it and turns the rule into a universal action.
    case matchesEverything
    /// WebKit rejects the filter, and with it the whole rule list.
    case rejected(URLFilterProblem)

    public var status: URLFilterParseStatus {
        switch self {
        case .filter: return .ok
        case .matchesEverything: return .matchesEverything
        case .rejected(let problem): return problem.status
        }
    }
}

public enum URLFilterParser {
    /// Parses `pattern` exactly as WebKit's `URLFilterParser::addPattern` does.
    public static func parse(_ pattern: String, caseSensitive: Bool = false) -> URLFilterParseResult {
        // WebKit checks `containsOnlyASCII()` before anything else, even before emptiness.
        // Both the check and the copy read the string's bytes in place: element by element
        // through its UTF-8 view they were 4.5 % of building a real list's engine.
        let scanned: (codePoints: [UInt32], firstNonASCII: Int?)? = pattern.utf8.withContiguousStorageIfAvailable { bytes in
            if let offset = bytes.firstIndex(where: { $0 >= 0x80 }) { return ([], offset) }
            return ([UInt32](unsafeUninitializedCapacity: bytes.count) { codePoints, count in
                for index in bytes.indices { codePoints[index] = UInt32(bytes[index]) }
                count = bytes.count
            }, nil)
        }
        let codePoints: [UInt32]
        if let scanned {
            // Every byte before the first non-ASCII one is a scalar of its own: its byte
            // offset is its scalar offset.
            if let offset = scanned.firstNonASCII {
                return .rejected(URLFilterProblem(status: .nonASCII, span: URLFilterSpan(offset: offset, length: 1)))
            }
            codePoints = scanned.codePoints
        } else {
            let utf8 = pattern.utf8
            if let firstNonASCII = utf8.firstIndex(where: { $0 >= 0x80 }) {
                let offset = pattern.unicodeScalars.distance(from: pattern.startIndex, to: firstNonASCII)
                return .rejected(URLFilterProblem(status: .nonASCII, span: URLFilterSpan(offset: offset, length: 1)))
            }
            codePoints = utf8.map(UInt32.init)
        }
        if codePoints.isEmpty {
            return .rejected(URLFilterProblem(status: .emptyPattern, span: URLFilterSpan(offset: 0, length: 1)))
        }
        var parser = YarrLegacyParser(pattern: codePoints, delegate: PatternBuilder(caseSensitive: caseSensitive))
        // A Yarr syntax error anywhere wins over whatever the delegate failed on earlier.
        if let error = parser.parse() {
            return .rejected(URLFilterProblem(status: .yarrError, span: URLFilterSpan(error.span), syntaxError: error.code))
        }
        return parser.delegate.finalize()
    }
}

/// WebKit's `PatternParser`: the Yarr delegate that builds terms and records the first failure.
struct PatternBuilder: YarrTokenDelegate {
    private let caseSensitive: Bool
    private var openGroups: [Term] = []
    private var sunkTerms: [Term] = []
    private var floatingTerm: Term?
    private var floatingSpan: Range<Int> = 0..<0
    private var hasBeginningOfLineAssertion = false
    /// The `$` that has already been placed; any term after it is misplaced.
    private var processedEndOfLineSpan: Range<Int>?
    private var failure: (status: URLFilterParseStatus, span: Range<Int>)?

    init(caseSensitive: Bool) {
        self.caseSensitive = caseSensitive
    }

    private var hasError: Bool { failure != nil }

    private mutating func fail(_ status: URLFilterParseStatus, _ span: Range<Int>) {
        if failure == nil { failure = (status, span) }
    }

    private mutating func setFloating(_ term: Term, _ span: Range<Int>) {
        floatingTerm = term
        floatingSpan = span
    }

    // WebKit `sinkFloatingTermIfNecessary`.
    private mutating func sinkFloatingTermIfNecessary() {
        guard let term = floatingTerm else { return }
        if let endOfLine = processedEndOfLineSpan {
            fail(.misplacedEndOfLine, endOfLine)
            floatingTerm = nil
            return
        }
        if term.isEndOfLineAssertion { processedEndOfLineSpan = floatingSpan }
        floatingTerm = nil
        if !openGroups.isEmpty {
            openGroups[openGroups.count - 1].extendGroup(with: term)
            return
        }
        sunkTerms.append(term)
    }

    mutating func atomPatternCharacter(_ character: UInt32, at span: Range<Int>) {
        if hasError { return }
        guard character < 0x80 else {
            fail(.nonASCII, span)
            return
        }
        sinkFloatingTermIfNecessary()
        setFloating(Term(character: UInt8(character), caseSensitive: caseSensitive), span)
    }

    mutating func atomBuiltInCharacterClass(_ id: BuiltInCharacterClass, inverted: Bool, at span: Range<Int>) {
        if hasError { return }
        sinkFloatingTermIfNecessary()
        if id == .dot && !inverted {
            setFloating(.universalTransition, span)
        } else {
            fail(.unsupportedCharacterClass, span)
        }
    }

    mutating func quantifyAtom(minimum: UInt32, maximum: UInt32, at span: Range<Int>) {
        if hasError { return }
        let infinite = YarrLegacyParser<PatternBuilder>.quantifyInfinite
        let quantifier: AtomQuantifier
        switch (minimum, maximum) {
        case (0, 1): quantifier = .zeroOrOne
        case (0, infinite): quantifier = .zeroOrMore
        case (1, infinite): quantifier = .oneOrMore
        default:
            fail(.invalidQuantifier, span)
            return
        }
        floatingTerm?.quantifier = quantifier
        floatingSpan = floatingSpan.lowerBound..<span.upperBound
    }

    mutating func atomBackReference(at span: Range<Int>) { fail(.backReference, span) }
    mutating func atomNamedBackReference(at span: Range<Int>) { fail(.backReference, span) }

    mutating func assertionBOL(at span: Range<Int>) {
        if hasError { return }
        if floatingTerm != nil || !sunkTerms.isEmpty || !openGroups.isEmpty {
            fail(.misplacedStartOfLine, span)
            return
        }
        hasBeginningOfLineAssertion = true
    }

    mutating func assertionEOL(at span: Range<Int>) {
        if hasError { return }
        sinkFloatingTermIfNecessary()
        setFloating(.endOfLineAssertion, span)
    }

    mutating func assertionWordBoundary(at span: Range<Int>) { fail(.wordBoundary, span) }

    mutating func atomCharacterClassBegin(inverted: Bool, at span: Range<Int>) {
        if hasError { return }
        sinkFloatingTermIfNecessary()
        setFloating(.characterSet(inverted: inverted), span)
    }

    mutating func atomCharacterClassAtom(_ character: UInt32, at span: Range<Int>) {
        if hasError { return }
        guard character < 0x80 else {
            fail(.nonASCII, span)
            return
        }
        floatingTerm?.addCharacter(UInt8(character), caseSensitive: caseSensitive)
        floatingSpan = floatingSpan.lowerBound..<max(floatingSpan.upperBound, span.upperBound)
    }

    mutating func atomCharacterClassRange(_ lower: UInt32, _ upper: UInt32, at span: Range<Int>) {
        if hasError { return }
        // WebKit asserts both ends are ASCII; a range reaching past 127 would trip its
        // `CharacterSet::set` release assertion, so it is reported as the non-ASCII failure it is.
        guard upper < 0x80 else {
            fail(.nonASCII, span)
            return
        }
        for character in lower...upper {
            floatingTerm?.addCharacter(UInt8(character), caseSensitive: caseSensitive)
        }
        floatingSpan = floatingSpan.lowerBound..<max(floatingSpan.upperBound, span.upperBound)
    }

    mutating func atomCharacterClassBuiltIn(at span: Range<Int>) { fail(.atomCharacter, span) }

    mutating func atomCharacterClassEnd() {
        // The set may still get a quantifier, so it floats until the next token (as in WebKit).
        floatingSpan = floatingSpan.lowerBound..<(floatingSpan.upperBound + 1)
    }

    mutating func atomParenthesesSubpatternBegin(at span: Range<Int>) {
        if hasError { return }
        sinkFloatingTermIfNecessary()
        openGroups.append(.emptyGroup)
    }

    mutating func atomParentheticalAssertionBegin(at span: Range<Int>) { fail(.group, span) }
    mutating func atomParentheticalModifierBegin(at span: Range<Int>) { fail(.group, span) }

    mutating func atomParenthesesEnd(at span: Range<Int>) {
        if hasError { return }
        sinkFloatingTermIfNecessary()
        setFloating(openGroups.removeLast(), span)
    }

    mutating func disjunction(at span: Range<Int>) { fail(.disjunction, span) }

    // WebKit `PatternParser::finalize`.
    mutating func finalize() -> URLFilterParseResult {
        if failure == nil {
            sinkFloatingTermIfNecessary()
        }
        if let failure {
            return .rejected(URLFilterProblem(status: failure.status, span: URLFilterSpan(failure.span)))
        }
        simplifySunkTerms()
        // "Check to see if there are any terms without ? or *."
        if !sunkTerms.contains(where: { $0.matchesAtLeastOneCharacter }) {
            return .matchesEverything
        }
        return .filter(ParsedURLFilter(
            terms: sunkTerms,
            hasBeginningOfLineAssertion: hasBeginningOfLineAssertion,
            isCaseSensitive: caseSensitive
        ))
    }

    // WebKit `PatternParser::simplifySunkTerms`.
    private mutating func simplifySunkTerms() {
        if sunkTerms.isEmpty { return }
        var canonicalDotStar = Term.universalTransition
        canonicalDotStar.quantifier = .zeroOrMore

        // Replace every ".*"-like term by the canonical one and drop repeated ".*" (in place).
        var kept = 0
        var isAfterDotStar = false
        for index in sunkTerms.indices {
            if sunkTerms[index].isKnownToMatchAnyString {
                if !isAfterDotStar {
                    sunkTerms[kept] = canonicalDotStar
                    kept += 1
                }
                isAfterDotStar = true
            } else {
                if kept != index { sunkTerms[kept] = sunkTerms[index] }
                kept += 1
                isAfterDotStar = false
            }
        }
        sunkTerms.removeLast(sunkTerms.count - kept)

        // An unanchored pattern is a search: prepend ".*".
        if !hasBeginningOfLineAssertion && !sunkTerms[0].isKnownToMatchAnyString {
            sunkTerms.insert(canonicalDotStar, at: 0)
        }
        // Remove a trailing ".*$".
        if sunkTerms.count > 2, sunkTerms[sunkTerms.count - 1].isEndOfLineAssertion,
           sunkTerms[sunkTerms.count - 2].isKnownToMatchAnyString {
            sunkTerms.removeLast(2)
        }
        // Trailing terms that can match empty carry no information ("foob?" ≡ "foo").
        if sunkTerms.last?.isEndOfLineAssertion == true { return }
        while let last = sunkTerms.last, !last.matchesAtLeastOneCharacter {
            sunkTerms.removeLast()
        }
    }
}
