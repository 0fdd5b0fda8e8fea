// A port of the tokenizer of JavaScriptCore's regular-expression parser
// (Source/JavaScriptCore/yarr/YarrParser.h, `JSC::Yarr::Parser`) restricted to what WebKit's
// content extensions use: `CompileMode::Legacy` (no `u`/`v` flag), a back-reference limit of 0 and
// named forward references disallowed — the arguments of the `Yarr::parse` call in
// `URLFilterParser::addPattern`.
//
// Like Yarr, it walks the pattern once and reports tokens to a delegate; a syntax error stops the
// walk. Unlike Yarr, every callback and error carries the span of pattern characters it came
// from, so a diagnostic can point at the offending character.

/// Receives the tokens of a pattern, as `JSC::Yarr::YarrSyntaxCheckable` delegates do.
protocol YarrTokenDelegate {
    mutating func assertionBOL(at span: Range<Int>)
    mutating func assertionEOL(at span: Range<Int>)
    mutating func assertionWordBoundary(at span: Range<Int>)
    mutating func atomPatternCharacter(_ character: UInt32, at span: Range<Int>)
    mutating func atomBuiltInCharacterClass(_ id: BuiltInCharacterClass, inverted: Bool, at span: Range<Int>)
    mutating func atomCharacterClassBegin(inverted: Bool, at span: Range<Int>)
    mutating func atomCharacterClassAtom(_ character: UInt32, at span: Range<Int>)
    mutating func atomCharacterClassRange(_ lower: UInt32, _ upper: UInt32, at span: Range<Int>)
    mutating func atomCharacterClassBuiltIn(at span: Range<Int>)
    mutating func atomCharacterClassEnd()
    mutating func atomParenthesesSubpatternBegin(at span: Range<Int>)
    mutating func atomParentheticalAssertionBegin(at span: Range<Int>)
    mutating func atomParentheticalModifierBegin(at span: Range<Int>)
    mutating func atomParenthesesEnd(at span: Range<Int>)
    mutating func atomBackReference(at span: Range<Int>)
    mutating func atomNamedBackReference(at span: Range<Int>)
    mutating func quantifyAtom(minimum: UInt32, maximum: UInt32, at span: Range<Int>)
    mutating func disjunction(at span: Range<Int>)
}

enum BuiltInCharacterClass {
    case dot, digit, space, word
}

/// A Yarr syntax error and the pattern characters it concerns.
struct YarrError {
    var code: YarrSyntaxError
    var span: Range<Int>
}

struct YarrLegacyParser<Delegate: YarrTokenDelegate> {
    /// Yarr's `quantifyInfinite` (`UINT_MAX`).
    static var quantifyInfinite: UInt32 { UInt32.max }
    /// Yarr's `MAX_PATTERN_SIZE`: "Derived by empirical testing of compile time in PCRE and WREC."
    static var maxPatternSize: Int { 1024 * 1024 }

    private enum TokenType { case notAtom, atom, lookbehind }
    private enum ParenthesesType { case subpattern, assertion, lookbehindAssertion }
    private enum EscapeMode { case normal, characterClass }
    private static var errorCodePoint: UInt32 { UInt32.max }

    var delegate: Delegate
    private let data: [UInt32]
    private var index = 0
    private var error: YarrError?
    private var parentheses: [(type: ParenthesesType, start: Int)] = []
    private var namedGroups = NamedCaptureGroups()
    /// Where the first `\k` that was read as a plain `k` stands; Yarr rejects such a pattern once
    /// it also has a named group.
    private var kIdentityEscapeSpan: Range<Int>?

    init(pattern: [UInt32], delegate: Delegate) {
        self.data = pattern
        self.delegate = delegate
    }

    /// Parses the whole pattern; returns the syntax error, if any (Yarr `Parser::parse`).
    mutating func parse() -> YarrError? {
        if data.count > Self.maxPatternSize {
            return YarrError(code: .patternTooLarge, span: 0..<data.count)
        }
        parseTokens()
        if error == nil, let span = kIdentityEscapeSpan, !namedGroups.isEmpty {
            // Yarr `handleIllegalReferences`: `\k` read as an identity escape is illegal once the
            // pattern has named groups.
            fail(.invalidNamedBackReference, span)
        }
        return error
    }

    // MARK: - Tokens (Yarr `parseTokens`)

    private mutating func parseTokens() {
        var lastTokenType = TokenType.notAtom
        while !atEnd {
            let start = index
            switch peek() {
            case ascii("|"):
                consume()
                delegate.disjunction(at: start..<index)
                lastTokenType = .notAtom
                namedGroups.nextAlternative()
            case ascii("("):
                parseParenthesesBegin()
                lastTokenType = .notAtom
            case ascii(")"):
                lastTokenType = parseParenthesesEnd()
            case ascii("^"):
                consume()
                delegate.assertionBOL(at: start..<index)
                lastTokenType = .notAtom
            case ascii("$"):
                consume()
                delegate.assertionEOL(at: start..<index)
                lastTokenType = .notAtom
            case ascii("."):
                consume()
                delegate.atomBuiltInCharacterClass(.dot, inverted: false, at: start..<index)
                lastTokenType = .atom
            case ascii("["):
                parseCharacterClass()
                lastTokenType = .atom
            case ascii("\\"):
                lastTokenType = parseAtomEscape()
            case ascii("*"):
                consume()
                parseQuantifier(lastTokenType, 0, Self.quantifyInfinite, start: start)
                lastTokenType = .notAtom
            case ascii("+"):
                consume()
                parseQuantifier(lastTokenType, 1, Self.quantifyInfinite, start: start)
                lastTokenType = .notAtom
            case ascii("?"):
                consume()
                parseQuantifier(lastTokenType, 0, 1, start: start)
                lastTokenType = .notAtom
            case ascii("{"):
                if parseBraceQuantifier(lastTokenType, start: start) {
                    lastTokenType = .notAtom
                } else {
                    // Not a complete quantifier: in legacy mode `{` is a literal (and `]`, `}` too).
                    delegate.atomPatternCharacter(consume(), at: start..<index)
                    lastTokenType = .atom
                }
            default:
                delegate.atomPatternCharacter(consume(), at: start..<index)
                lastTokenType = .atom
            }
            if error != nil { return }
        }
        if let open = parentheses.last {
            fail(.missingParentheses, open.start..<open.start + 1)
        }
    }

    /// `{n}`, `{n,}`, `{n,m}`; returns false (with the index restored) when the braces do not
    /// form a quantifier.
    private mutating func parseBraceQuantifier(_ lastTokenType: TokenType, start: Int) -> Bool {
        consume()
        guard peekIsDigit else {
            index = start
            return false
        }
        let minimum = consumeNumber64()
        var maximum = minimum
        if tryConsume(ascii(",")) {
            maximum = peekIsDigit ? consumeNumber64() : UInt64.max
        }
        guard tryConsume(ascii("}")) else {
            index = start
            return false
        }
        if minimum == UInt64.max {
            fail(.quantifierTooLarge, start..<index)
        } else if minimum <= maximum {
            let clampedMinimum = UInt32(min(minimum, UInt64(Self.quantifyInfinite)))
            let clampedMaximum = UInt32(min(maximum, UInt64(Self.quantifyInfinite)))
            parseQuantifier(lastTokenType, clampedMinimum, clampedMaximum, start: start)
        } else {
            fail(.quantifierOutOfOrder, start..<index)
        }
        return true
    }

    private mutating func parseQuantifier(_ lastTokenType: TokenType, _ minimum: UInt32, _ maximum: UInt32, start: Int) {
        switch lastTokenType {
        case .atom:
            _ = tryConsume(ascii("?"))  // A lazy quantifier: laziness means nothing to a DFA.
            delegate.quantifyAtom(minimum: minimum, maximum: maximum, at: start..<index)
        case .lookbehind:
            fail(.cantQuantifyAtom, start..<index)
        case .notAtom:
            fail(.quantifierWithoutAtom, start..<index)
        }
    }

    // MARK: - Parentheses (Yarr `parseParenthesesBegin`, `parseParenthesesEnd`)

    private mutating func parseParenthesesBegin() {
        let start = index
        consume()
        var type = ParenthesesType.subpattern
        if tryConsume(ascii("?")) {
            if atEnd {
                fail(.parenthesesTypeInvalid, start..<index)
                return
            }
            switch peek() {
            case ascii(":"):
                consume()
                delegate.atomParenthesesSubpatternBegin(at: start..<index)
            case ascii("="), ascii("!"):
                consume()
                delegate.atomParentheticalAssertionBegin(at: start..<index)
                type = .assertion
            case ascii("<"):
                consume()
                let name = tryConsumeGroupName()
                if error != nil { break }
                if let name {
                    if let span = kIdentityEscapeSpan {
                        fail(.invalidNamedBackReference, span)
                    } else if namedGroups.add(name) {
                        delegate.atomParenthesesSubpatternBegin(at: start..<index)
                    } else {
                        fail(.duplicateGroupName, start..<index)
                    }
                } else if tryConsume(ascii("=")) || tryConsume(ascii("!")) {
                    delegate.atomParentheticalAssertionBegin(at: start..<index)
                    type = .lookbehindAssertion
                } else {
                    fail(.invalidGroupName, start..<index)
                }
            case ascii("-"), ascii("i"), ascii("m"), ascii("s"):
                parseModifiers(groupStart: start)
            default:
                fail(.parenthesesTypeInvalid, start..<index + 1)
            }
        } else {
            delegate.atomParenthesesSubpatternBegin(at: start..<index)
        }
        parentheses.append((type, start))
        namedGroups.pushParenthesis()
    }

    /// `(?ims-ims:`, the ES2025 regular-expression modifiers.
    private mutating func parseModifiers(groupStart: Int) {
        var added = Set<UInt32>()
        var removed = Set<UInt32>()
        var hasHitNegation = false
        while !atEnd {
            let character = consume()
            if character == ascii(":") { break }
            switch character {
            case ascii("-"):
                if hasHitNegation { fail(.invalidRegularExpressionModifier, groupStart..<index) }
                hasHitNegation = true
            case ascii("i"), ascii("m"), ascii("s"):
                let inserted = hasHitNegation ? removed.insert(character).inserted : added.insert(character).inserted
                if !inserted { fail(.invalidRegularExpressionModifier, groupStart..<index) }
            default:
                fail(.parenthesesTypeInvalid, groupStart..<index)
            }
        }
        if error != nil { return }
        if !added.isDisjoint(with: removed) || (added.isEmpty && removed.isEmpty) {
            fail(.invalidRegularExpressionModifier, groupStart..<index)
        }
        delegate.atomParentheticalModifierBegin(at: groupStart..<index)
    }

    private mutating func parseParenthesesEnd() -> TokenType {
        let start = index
        consume()
        guard let open = parentheses.popLast() else {
            fail(.parenthesesUnmatched, start..<index)
            return .notAtom
        }
        delegate.atomParenthesesEnd(at: start..<index)
        namedGroups.popParenthesis()
        // In legacy mode lookahead assertions can be quantified (Annex B); lookbehinds cannot.
        return open.type == .lookbehindAssertion ? .lookbehind : .atom
    }

    // MARK: - Character classes (Yarr `parseCharacterClass`, `CharacterClassParserDelegate`)

    private enum ClassState {
        case empty
        case cachedCharacter(UInt32, start: Int)
        case cachedCharacterHyphen(UInt32, start: Int)
        case afterCharacterClass
        case afterCharacterClassHyphen
    }

    private mutating func parseCharacterClass() {
        let start = index
        consume()
        let inverted = tryConsume(ascii("^"))
        delegate.atomCharacterClassBegin(inverted: inverted, at: start..<index)
        var state = ClassState.empty
        while !atEnd {
            let atomStart = index
            switch peek() {
            case ascii("]"):
                consume()
                endCharacterClass(state)
                return
            case ascii("\\"):
                switch parseEscape(mode: .characterClass) {
                case .character(let character):
                    classAtom(character, hyphenIsRange: false, start: atomStart, state: &state)
                case .builtInClass:
                    classBuiltIn(start: atomStart, state: &state)
                case .wordBoundary, .backReference, .namedBackReference, .failed:
                    break
                }
            default:
                classAtom(consume(), hyphenIsRange: true, start: atomStart, state: &state)
            }
            if error != nil { return }
        }
        fail(.characterClassUnmatched, start..<start + 1)
    }

    private mutating func classAtom(_ character: UInt32, hyphenIsRange: Bool, start: Int, state: inout ClassState) {
        let span = start..<index
        switch state {
        case .afterCharacterClass:
            // A hyphen after a built-in class is a literal: `[\d-x]` in legacy mode.
            if hyphenIsRange && character == ascii("-") {
                delegate.atomCharacterClassAtom(character, at: span)
                state = .afterCharacterClassHyphen
                return
            }
            state = .cachedCharacter(character, start: start)
        case .empty:
            state = .cachedCharacter(character, start: start)
        case .cachedCharacter(let cached, let cachedStart):
            if hyphenIsRange && character == ascii("-") {
                state = .cachedCharacterHyphen(cached, start: cachedStart)
            } else {
                delegate.atomCharacterClassAtom(cached, at: cachedStart..<start)
                state = .cachedCharacter(character, start: start)
            }
        case .cachedCharacterHyphen(let cached, let cachedStart):
            if character < cached {
                fail(.characterClassRangeOutOfOrder, cachedStart..<index)
                return
            }
            delegate.atomCharacterClassRange(cached, character, at: cachedStart..<index)
            state = .empty
        case .afterCharacterClassHyphen:
            delegate.atomCharacterClassAtom(character, at: span)
            state = .empty
        }
    }

    private mutating func classBuiltIn(start: Int, state: inout ClassState) {
        let span = start..<index
        switch state {
        case .cachedCharacter(let cached, let cachedStart):
            delegate.atomCharacterClassAtom(cached, at: cachedStart..<start)
            delegate.atomCharacterClassBuiltIn(at: span)
            state = .afterCharacterClass
        case .empty, .afterCharacterClass:
            delegate.atomCharacterClassBuiltIn(at: span)
            state = .afterCharacterClass
        case .cachedCharacterHyphen(let cached, let cachedStart):
            // `[a-\d]`: legacy mode reads the hyphen as a literal.
            delegate.atomCharacterClassAtom(cached, at: cachedStart..<start)
            delegate.atomCharacterClassAtom(ascii("-"), at: cachedStart..<start)
            delegate.atomCharacterClassBuiltIn(at: span)
            state = .empty
        case .afterCharacterClassHyphen:
            delegate.atomCharacterClassBuiltIn(at: span)
            state = .empty
        }
    }

    private mutating func endCharacterClass(_ state: ClassState) {
        switch state {
        case .cachedCharacter(let cached, let start):
            delegate.atomCharacterClassAtom(cached, at: start..<start + 1)
        case .cachedCharacterHyphen(let cached, let start):
            delegate.atomCharacterClassAtom(cached, at: start..<start + 1)
            delegate.atomCharacterClassAtom(ascii("-"), at: start + 1..<start + 2)
        case .empty, .afterCharacterClass, .afterCharacterClassHyphen:
            break
        }
        delegate.atomCharacterClassEnd()
    }

    // MARK: - Escapes (Yarr `parseEscape`)

    private enum Escape {
        case character(UInt32)
        case builtInClass(BuiltInCharacterClass, inverted: Bool)
        case wordBoundary
        case backReference
        case namedBackReference
        case failed
    }

    private mutating func parseAtomEscape() -> TokenType {
        let start = index
        switch parseEscape(mode: .normal) {
        case .character(let character):
            delegate.atomPatternCharacter(character, at: start..<index)
        case .builtInClass(let id, let inverted):
            delegate.atomBuiltInCharacterClass(id, inverted: inverted, at: start..<index)
        case .wordBoundary:
            delegate.assertionWordBoundary(at: start..<index)
            return .notAtom
        case .backReference:
            delegate.atomBackReference(at: start..<index)
        case .namedBackReference:
            delegate.atomNamedBackReference(at: start..<index)
        case .failed:
            break
        }
        return .atom
    }

    private mutating func parseEscape(mode: EscapeMode) -> Escape {
        let start = index
        consume()
        if atEnd {
            fail(.escapeUnterminated, start..<index)
            return .failed
        }
        let character = peek()
        switch character {
        case ascii("b"):
            consume()
            return mode == .normal ? .wordBoundary : .character(0x08)
        case ascii("B"):
            consume()
            return mode == .normal ? .wordBoundary : .character(character)
        case ascii("d"), ascii("D"):
            consume()
            return .builtInClass(.digit, inverted: character == ascii("D"))
        case ascii("s"), ascii("S"):
            consume()
            return .builtInClass(.space, inverted: character == ascii("S"))
        case ascii("w"), ascii("W"):
            consume()
            return .builtInClass(.word, inverted: character == ascii("W"))
        case ascii("0"):
            consume()
            return .character(peekIsDigit ? consumeOctal(2) : 0)
        case ascii("1")...ascii("9"):
            // With a back-reference limit of 0, `\1`…`\9` are never back-references: they are
            // octal escapes (`\1`…`\7`) or literal digits (`\8`, `\9`) — why WebKit's test
            // expects `(a)\1` to parse.
            if character < ascii("8") { return .character(consumeOctal(3)) }
            return .character(consume())
        case ascii("f"): consume(); return .character(0x0C)
        case ascii("n"): consume(); return .character(0x0A)
        case ascii("r"): consume(); return .character(0x0D)
        case ascii("t"): consume(); return .character(0x09)
        case ascii("v"): consume(); return .character(0x0B)
        case ascii("c"):
            let state = index
            consume()
            if !atEnd {
                let control = consume()
                if isASCIIAlpha(control) { return .character(control & 0x1F) }
                if mode != .normal && (isASCIIDigit(control) || control == ascii("_")) {
                    return .character(control & 0x1F)
                }
            }
            // `\c` without a control letter is a backslash followed by a literal `c`.
            index = state
            return .character(ascii("\\"))
        case ascii("x"):
            consume()
            let value = tryConsumeHex(2)
            return .character(value == Self.errorCodePoint ? ascii("x") : value)
        case ascii("k"):
            consume()
            let state = index
            if mode == .normal && tryConsume(ascii("<")) {
                let name = tryConsumeGroupName()
                if error != nil { return .failed }
                if let name, namedGroups.contains(name) { return .namedBackReference }
            }
            index = state
            if kIdentityEscapeSpan == nil { kIdentityEscapeSpan = start..<index }
            return .character(ascii("k"))
        case ascii("u"):
            let value = tryConsumeUnicodeEscape(inGroupName: false)
            if error != nil { return .failed }
            return .character(value == Self.errorCodePoint ? ascii("u") : value)
        default:
            // Identity escape: in legacy mode almost anything may be escaped (`\.`, `\/`, `\p`, `\q`).
            return .character(consume())
        }
    }

    // MARK: - Group names (Yarr `tryConsumeGroupName`, `tryConsumeUnicodeEscape`)

    private mutating func tryConsumeGroupName() -> String? {
        if atEnd { return nil }
        let state = index
        var character = tryConsumeIdentifierCharacter()
        if isIdentifierStart(character) {
            var name = [character]
            while !atEnd {
                character = tryConsumeIdentifierCharacter()
                if character == ascii(">") {
                    return String(String.UnicodeScalarView(name.compactMap(Unicode.Scalar.init)))
                }
                if !isIdentifierPart(character) { break }
                name.append(character)
            }
        }
        index = state
        return nil
    }

    private mutating func tryConsumeIdentifierCharacter() -> UInt32 {
        if tryConsume(ascii("\\")) { return tryConsumeUnicodeEscape(inGroupName: true) }
        return consume()
    }

    private mutating func tryConsumeUnicodeEscape(inGroupName: Bool) -> UInt32 {
        let start = index - 1
        if !tryConsume(ascii("u")) || atEnd {
            if inGroupName { fail(.invalidUnicodeEscape, start..<index) }
            return Self.errorCodePoint
        }
        if inGroupName && tryConsume(ascii("{")) {
            var codePoint: UInt32 = 0
            repeat {
                guard !atEnd, isASCIIHexDigit(peek()) else {
                    fail(.invalidUnicodeCodePointEscape, start..<index)
                    return Self.errorCodePoint
                }
                codePoint = (codePoint << 4) | hexValue(consume())
                if codePoint > 0x10FFFF {
                    fail(.invalidUnicodeCodePointEscape, start..<index)
                    return Self.errorCodePoint
                }
            } while !atEnd && peek() != ascii("}")
            guard tryConsume(ascii("}")) else {
                fail(.invalidUnicodeCodePointEscape, start..<index)
                return Self.errorCodePoint
            }
            return codePoint
        }
        let codeUnit = tryConsumeHex(4)
        if codeUnit == Self.errorCodePoint {
            if inGroupName { fail(.invalidUnicodeEscape, start..<index) }
            return Self.errorCodePoint
        }
        // A surrogate pair spelled as two escapes, which only group names combine.
        if inGroupName, (0xD800...0xDBFF).contains(codeUnit), data.count - index >= 6, peek() == ascii("\\") {
            let state = index
            consume()
            if tryConsume(ascii("u")) {
                let trail = tryConsumeHex(4)
                if (0xDC00...0xDFFF).contains(trail) {
                    return 0x10000 + ((codeUnit - 0xD800) << 10) + (trail - 0xDC00)
                }
            }
            index = state
        }
        return codeUnit
    }

    private func isIdentifierStart(_ character: UInt32) -> Bool {
        if character < 0x80 {
            return isASCIIAlpha(character) || character == ascii("_") || character == ascii("$")
        }
        guard let category = Self.generalCategory(of: character) else { return false }
        return Self.isLetter(category)
    }

    private func isIdentifierPart(_ character: UInt32) -> Bool {
        if character < 0x80 {
            return isASCIIAlpha(character) || isASCIIDigit(character) || character == ascii("_") || character == ascii("$")
        }
        if character == 0x200C || character == 0x200D { return true }
        guard let category = Self.generalCategory(of: character) else { return false }
        switch category {
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation: return true
        default: return Self.isLetter(category)
        }
    }

    private static func generalCategory(of character: UInt32) -> Unicode.GeneralCategory? {
        Unicode.Scalar(character)?.properties.generalCategory
    }

    private static func isLetter(_ category: Unicode.GeneralCategory) -> Bool {
        switch category {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    // MARK: - Reading helpers

    private var atEnd: Bool { index == data.count }
    private var peekIsDigit: Bool { !atEnd && isASCIIDigit(peek()) }
    private func peek() -> UInt32 { data[index] }

    @discardableResult
    private mutating func consume() -> UInt32 {
        defer { index += 1 }
        return data[index]
    }

    private mutating func tryConsume(_ character: UInt32) -> Bool {
        guard !atEnd, data[index] == character else { return false }
        index += 1
        return true
    }

    private mutating func consumeNumber64() -> UInt64 {
        var value: UInt64 = 0
        var overflowed = false
        while peekIsDigit {
            let digit = UInt64(consume() - ascii("0"))
            let (multiplied, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = multiplied.addingReportingOverflow(digit)
            overflowed = overflowed || overflow1 || overflow2
            value = added
        }
        return overflowed ? UInt64.max : value
    }

    /// Annex B LegacyOctalEscapeSequence, as Yarr `consumeOctal` reads it.
    private mutating func consumeOctal(_ count: Int) -> UInt32 {
        var value: UInt32 = 0
        var remaining = count
        while remaining > 0 && value < 32 && !atEnd && (ascii("0")...ascii("7")).contains(peek()) {
            value = value * 8 + (consume() - ascii("0"))
            remaining -= 1
        }
        return value
    }

    private mutating func tryConsumeHex(_ count: Int) -> UInt32 {
        let state = index
        var value: UInt32 = 0
        for _ in 0..<count {
            guard !atEnd, isASCIIHexDigit(peek()) else {
                index = state
                return Self.errorCodePoint
            }
            value = (value << 4) | hexValue(consume())
        }
        return value
    }

    private mutating func fail(_ code: YarrSyntaxError, _ span: Range<Int>) {
        if error == nil { error = YarrError(code: code, span: span) }
    }
}

/// Yarr's bookkeeping of named groups: a name may repeat only in different alternatives.
private struct NamedCaptureGroups {
    private var allNames = Set<String>()
    private var nested: [Set<String>] = [[]]
    private var active: [Set<String>] = [[]]

    var isEmpty: Bool { allNames.isEmpty }

    func contains(_ name: String) -> Bool { allNames.contains(name) }

    mutating func nextAlternative() {
        nested[nested.count - 1].formUnion(active[active.count - 1])
        active[active.count - 1] = []
        if active.count > 1 { active[active.count - 1].formUnion(active[active.count - 2]) }
    }

    mutating func pushParenthesis() {
        let top = active[active.count - 1]
        nested.append([])
        active.append(top)
    }

    mutating func popParenthesis() {
        guard nested.count > 1, active.count > 1 else { return }
        nested[nested.count - 1].formUnion(active[active.count - 1])
        active[active.count - 2].formUnion(nested[nested.count - 1])
        nested.removeLast()
        active.removeLast()
    }

    /// Returns false when the name is already active in this alternative.
    mutating func add(_ name: String) -> Bool {
        allNames.insert(name)
        return active[active.count - 1].insert(name).inserted
    }
}

@inline(__always) func ascii(_ character: Unicode.Scalar) -> UInt32 { character.value }
@inline(__always) func isASCIIDigit(_ character: UInt32) -> Bool { character >= 0x30 && character <= 0x39 }
@inline(__always) func isASCIIAlpha(_ character: UInt32) -> Bool { (character | 0x20) >= 0x61 && (character | 0x20) <= 0x7A }
@inline(__always) func isASCIIHexDigit(_ character: UInt32) -> Bool {
    isASCIIDigit(character) || ((character | 0x20) >= 0x61 && (character | 0x20) <= 0x66)
}
@inline(__always) func hexValue(_ character: UInt32) -> UInt32 {
    isASCIIDigit(character) ? character - 0x30 : (character | 0x20) - 0x61 + 10
}
