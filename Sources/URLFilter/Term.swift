// A port of WebKit's `ContentExtensions::Term` (Source/WebCore/contentextensions/Term.h).
//
// A url-filter is parsed into a flat list of terms: character sets (a literal, `.`, `[...]`, or
// the end-of-line sentinel that `$` compiles to) and groups, each with one quantifier. The
// predicates below decide, exactly as WebKit does, whether a filter "matches everything" and how
// the term list is simplified before it becomes an automaton.

/// How often a term may repeat: WebKit only keeps `?`, `*` and `+` (and their `{}` spellings).
public enum AtomQuantifier: Sendable, Hashable {
    case one
    case zeroOrOne
    case zeroOrMore
    case oneOrMore
}

/// A set of ASCII code points, 0...127. Code point 0 is WebKit's end-of-string sentinel.
public struct ASCIISet: Sendable, Hashable {
    public private(set) var low: UInt64 = 0
    public private(set) var high: UInt64 = 0
    public private(set) var isInverted = false

    public init() {}

    public mutating func insert(_ character: UInt8) {
        precondition(character < 128)
        if character < 64 { low |= 1 << UInt64(character) } else { high |= 1 << UInt64(character - 64) }
    }

    public func contains(_ character: UInt8) -> Bool {
        precondition(character < 128)
        return character < 64 ? low & (1 << UInt64(character)) != 0 : high & (1 << UInt64(character - 64)) != 0
    }

    mutating func invert() {
        isInverted = true
    }

    var bitCount: Int { low.nonzeroBitCount + high.nonzeroBitCount }

    /// The lowest and highest code points in the set (ignoring inversion), without building
    /// the list: for sets of one or two, which literals are.
    var lowestAndHighest: (lowest: UInt8, highest: UInt8)? {
        guard bitCount > 0 else { return nil }
        let lowest = low != 0 ? UInt8(low.trailingZeroBitCount) : UInt8(64 + high.trailingZeroBitCount)
        let highest = high != 0 ? UInt8(127 - high.leadingZeroBitCount) : UInt8(63 - low.leadingZeroBitCount)
        return (lowest, highest)
    }

    /// The code points this set lets through once inversion is applied. An inverted set never
    /// matches the sentinel 0: WebKit's graph builder starts inverted ranges at 1.
    public var matchedCharacters: [UInt8] {
        (0..<128).map(UInt8.init).filter { character in
            if isInverted { return character != 0 && !contains(character) }
            return contains(character)
        }
    }
}

/// One term of a parsed url-filter. Not `indirect`: groups recurse through an array already,
/// and boxing every character term would cost an allocation per character.
public enum TermAtom: Sendable, Hashable {
    case characterSet(ASCIISet)
    case group([Term])
}

public struct Term: Sendable, Hashable {
    public var atom: TermAtom
    public var quantifier: AtomQuantifier = .one

    /// A literal character; letters match both cases unless the filter is case-sensitive
    /// (WebKit `Term::addCharacter`).
    init(character: UInt8, caseSensitive: Bool) {
        var set = ASCIISet()
        Term.add(character, to: &set, caseSensitive: caseSensitive)
        atom = .characterSet(set)
    }

    /// `.`: every code point 1...127, never the end-of-string sentinel
    /// (WebKit `Term(UniversalTransition)`; test `DotDoesNotIncludeEndOfLine`).
    static let universalTransition: Term = {
        var set = ASCIISet()
        for character in UInt8(1)..<128 { set.insert(character) }
        return Term(atom: .characterSet(set))
    }()

    /// `$` compiles to a transition on the sentinel 0 (WebKit `Term(EndOfLineAssertionTerm)`).
    static let endOfLineAssertion: Term = {
        var set = ASCIISet()
        set.insert(0)
        return Term(atom: .characterSet(set))
    }()

    static func characterSet(inverted: Bool) -> Term {
        var set = ASCIISet()
        if inverted { set.invert() }
        return Term(atom: .characterSet(set))
    }

    static var emptyGroup: Term { Term(atom: .group([])) }

    init(atom: TermAtom, quantifier: AtomQuantifier = .one) {
        self.atom = atom
        self.quantifier = quantifier
    }

    static func add(_ character: UInt8, to set: inout ASCIISet, caseSensitive: Bool) {
        let isLetter = (character >= 0x41 && character <= 0x5A) || (character >= 0x61 && character <= 0x7A)
        if caseSensitive || !isLetter {
            set.insert(character)
        } else {
            set.insert(character & ~0x20)
            set.insert(character | 0x20)
        }
    }

    mutating func addCharacter(_ character: UInt8, caseSensitive: Bool) {
        guard case .characterSet(var set) = atom else { return }
        Term.add(character, to: &set, caseSensitive: caseSensitive)
        atom = .characterSet(set)
    }

    mutating func extendGroup(with term: Term) {
        guard case .group(var terms) = atom else { return }
        // Release the atom's hold on the array first: appending to a shared copy would copy
        // the whole group each time, quadratic in the group's length.
        atom = .group([])
        terms.append(term)
        atom = .group(terms)
    }

    /// WebKit `Term::isEndOfLineAssertion`: a plain set holding only the sentinel.
    public var isEndOfLineAssertion: Bool {
        guard case .characterSet(let set) = atom else { return false }
        return !set.isInverted && set.bitCount == 1 && set.contains(0)
    }

    /// WebKit `Term::matchesAtLeastOneCharacter`.
    public var matchesAtLeastOneCharacter: Bool {
        if quantifier == .zeroOrOne || quantifier == .zeroOrMore { return false }
        if isEndOfLineAssertion { return false }
        if case .group(let terms) = atom {
            return terms.contains { $0.matchesAtLeastOneCharacter }
        }
        return true
    }

    /// WebKit `Term::isUniversalTransition`: exact for sets, conservative for groups.
    var isUniversalTransition: Bool {
        switch atom {
        case .characterSet(let set):
            return (set.isInverted && set.bitCount == 0)
                || (!set.isInverted && set.bitCount == 127 && !set.contains(0))
        case .group(let terms):
            return terms.count == 1 && terms[0].isUniversalTransition
        }
    }

    /// WebKit `Term::isKnownToMatchAnyString`: `.*`, `(.*)`, `(.)*`, `(.+)?`, `(.?)+` and friends.
    public var isKnownToMatchAnyString: Bool {
        switch atom {
        case .characterSet:
            // The quantifier first: nearly every term of a filter is a plain character.
            return quantifier == .zeroOrMore && isUniversalTransition
        case .group(let terms):
            guard terms.count == 1 else { return false }
            let inner = terms[0]
            if inner.isKnownToMatchAnyString { return true }
            if inner.isUniversalTransition {
                if quantifier == .zeroOrMore { return true }
                if quantifier == .zeroOrOne && inner.quantifier == .oneOrMore { return true }
                if quantifier == .oneOrMore && inner.quantifier == .zeroOrOne { return true }
            }
            return false
        }
    }
}
