/// The outcome of parsing a url-filter, one case per WebKit `URLFilterParser::ParseStatus`
/// (Source/WebCore/contentextensions/URLFilterParser.h). Every case but `ok` and
/// `matchesEverything` makes WebKit reject the whole rule list with `JSONInvalidRegex`
/// ("Invalid or unsupported regular expression.").
public enum URLFilterParseStatus: String, Sendable, CaseIterable {
    case ok
    case matchesEverything
    case nonASCII
    case unsupportedCharacterClass
    case backReference
    case forwardReference
    case misplacedStartOfLine
    case wordBoundary
    case atomCharacter
    case group
    case disjunction
    case misplacedEndOfLine
    case emptyPattern
    case yarrError
    case invalidQuantifier

    /// The sentence WebKit logs for this status (`URLFilterParser::statusString`), verbatim.
    public var webKitMessage: String {
        switch self {
        case .ok: return "Ok"
        case .matchesEverything: return "Matches everything."
        case .nonASCII: return "Only ASCII characters are supported in pattern."
        case .unsupportedCharacterClass: return "Character class is not supported."
        case .backReference: return "Patterns cannot contain backreferences."
        case .forwardReference: return "Patterns cannot contain forward references."
        case .misplacedStartOfLine: return "Start of line assertion can only appear as the first term in a filter."
        case .wordBoundary: return "Word boundaries assertions are not supported yet."
        case .atomCharacter: return "Builtins character class atoms are not supported yet."
        case .group: return "Groups are not supported yet."
        case .disjunction: return "Disjunctions are not supported yet."
        case .misplacedEndOfLine: return "The end of line assertion must be the last term in an expression."
        case .emptyPattern: return "Empty pattern."
        case .yarrError: return "Internal error in YARR."
        case .invalidQuantifier: return "Arbitrary atom repetitions are not supported."
        }
    }

    /// Whether WebKit refuses to compile a rule list that contains this filter.
    public var isRejectedByWebKit: Bool {
        self != .ok && self != .matchesEverything
    }
}

/// The JavaScriptCore regular-expression syntax errors (`JSC::Yarr::ErrorCode`) that a url-filter
/// can hit in WebKit's legacy (non-Unicode) parsing mode. WebKit folds them all into
/// `URLFilterParseStatus.yarrError`; webpolicy keeps the precise reason for its messages.
public enum YarrSyntaxError: String, Sendable, CaseIterable {
    case patternTooLarge
    case quantifierOutOfOrder
    case quantifierWithoutAtom
    case quantifierTooLarge
    case cantQuantifyAtom
    case missingParentheses
    case parenthesesUnmatched
    case parenthesesTypeInvalid
    case invalidGroupName
    case duplicateGroupName
    case characterClassUnmatched
    case characterClassRangeOutOfOrder
    case escapeUnterminated
    case invalidUnicodeEscape
    case invalidUnicodeCodePointEscape
    case invalidNamedBackReference
    case invalidRegularExpressionModifier

    /// JavaScriptCore's wording (`Yarr::errorMessage`, without its "Invalid regular expression: " prefix).
    public var message: String {
        switch self {
        case .patternTooLarge: return "regular expression too large"
        case .quantifierOutOfOrder: return "numbers out of order in {} quantifier"
        case .quantifierWithoutAtom: return "nothing to repeat"
        case .quantifierTooLarge: return "number too large in {} quantifier"
        case .cantQuantifyAtom: return "invalid quantifier"
        case .missingParentheses: return "missing )"
        case .parenthesesUnmatched: return "unmatched parentheses"
        case .parenthesesTypeInvalid: return "unrecognized character after (?"
        case .invalidGroupName: return "invalid group specifier name"
        case .duplicateGroupName: return "duplicate group specifier name"
        case .characterClassUnmatched: return "missing terminating ] for character class"
        case .characterClassRangeOutOfOrder: return "range out of order in character class"
        case .escapeUnterminated: return "\\ at end of pattern"
        case .invalidUnicodeEscape: return "invalid Unicode \\u escape"
        case .invalidUnicodeCodePointEscape: return "invalid Unicode code point \\u{} escape"
        case .invalidNamedBackReference: return "invalid \\k<> named backreference"
        case .invalidRegularExpressionModifier: return "invalid regular expression modifier"
        }
    }
}
