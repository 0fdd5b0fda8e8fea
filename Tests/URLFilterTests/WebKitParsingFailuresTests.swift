import Testing
@testable import URLFilter

// Ported from WebKit's API tests, Tools/TestWebKitAPI/Tests/WebCore/ContentExtensions.cpp:
// `TEST_F(ContentExtensionTest, ParsingFailures)` and `PatternMatchingTheEmptyString`, which
// call `URLFilterParser::addPattern(pattern, /* caseSensitive */ false, 0)` and compare statuses.

private func status(_ pattern: String) -> URLFilterParseStatus {
    URLFilterParser.parse(pattern).status
}

@Suite("WebKit ParsingFailures")
struct WebKitParsingFailuresTests {
    @Test(arguments: [
        ("a*b?.*.?[a-z]?[a-z]*", URLFilterParseStatus.matchesEverything),
        ("a*b?.*.?[a-z]?[a-z]+", .ok),
        ("a*b?.*.?[a-z]?[a-z]", .ok),
        (".*?a", .ok),
        (".*a", .ok),

        ("(?!)", .group),
        ("(?=)", .group),
        ("(?!a)", .group),
        ("(?=a)", .group),
        ("(regex)", .ok),
        ("(regex", .yarrError),
        ("((regex)", .yarrError),
        ("(?:regex)", .ok),
        ("(?:regex", .yarrError),
        ("[^.]+", .ok),

        ("a++", .yarrError),
        ("[a]++", .yarrError),
        ("+", .yarrError),

        ("[", .yarrError),
        ("[a}", .yarrError),

        // WebKit: "FIXME: Look into why these do not cause YARR parsing errors."
        ("a]", .ok),
        ("{", .ok),
        ("{[a]", .ok),
        ("{0", .ok),
        ("{0,", .ok),
        ("{0,1", .ok),
        ("a{0,1", .ok),
        ("a{a,b}", .ok),

        ("\u{FF}", .nonASCII),
        ("\\xff", .nonASCII),

        ("\\x\\r\\n", .ok),
        ("\\b", .wordBoundary),
        ("[\\d]", .atomCharacter),
        ("\\d\\D\\w\\s\\v\\h\\i\\c", .unsupportedCharacterClass),

        ("this|that", .disjunction),
        ("a{0,1}b", .ok),
        ("a{0,2}b", .invalidQuantifier),
        ("", .emptyPattern),
        ("$$", .misplacedEndOfLine),
        ("a^", .misplacedStartOfLine),
        ("(^)", .misplacedStartOfLine),

        ("(a)\\1", .ok),  // WebKit: "This should be BackReference, right?"
        // Newer revisions of the same test (named groups).
        ("(?<A>a)\\k<A>", .backReference),
        ("\\k<A>(?<A>a)", .yarrError),
        ("(<A>a)\\k<A>", .ok),
    ])
    func parsingFailures(pattern: String, expected: URLFilterParseStatus) {
        #expect(status(pattern) == expected, "pattern \(pattern)")
    }

    @Test(arguments: [
        ".*", "a*", ".?", "a?",
        "[a-z]*", "[a-z]?",
        "(foobar)*", "(foobar)?", "(.*)", "(a*)", "(.?)", "(a?)", "([a-z]*)", "([a-z]?)",
        "(.)*", "(.+)*", "(.?)*", "(.*)*", "(.+)?", "(.?)+",
        "((foo)?((.)*)(bar)*)",
    ])
    func patternMatchingTheEmptyString(pattern: String) {
        #expect(status(pattern) == .matchesEverything, "pattern \(pattern)")
    }

    @Test func patternTooLargeIsAYarrError() {
        // WebKit test `DeepNFA` notes that a 2,000,000-character pattern fails in Yarr.
        let pattern = String(repeating: "a", count: 2_000_000)
        let result = URLFilterParser.parse(pattern)
        guard case .rejected(let problem) = result else {
            Issue.record("expected a rejection")
            return
        }
        #expect(problem.status == .yarrError)
        #expect(problem.syntaxError == .patternTooLarge)
    }
}
