import Testing
import URLFilter

// Where each failure points. `^` under the pattern marks the expected span; webpolicy maps these
// spans into the YAML file to put the caret on the offending characters.

private func problem(_ pattern: String) -> URLFilterProblem? {
    if case .rejected(let problem) = URLFilterParser.parse(pattern) { return problem }
    return nil
}

/// `marks` has `^` under every character of the expected span.
private func span(_ marks: String) -> URLFilterSpan {
    let characters = Array(marks)
    let first = characters.firstIndex(of: "^")!
    let last = characters.lastIndex(of: "^")!
    return URLFilterSpan(offset: first, length: last - first + 1)
}

@Suite("url-filter failure spans")
struct URLFilterSpanTests {
    @Test(arguments: [
        ("^https?://(a|b)\\.example/", "            ^", URLFilterParseStatus.disjunction, nil as YarrSyntaxError?),
        ("\\bads\\b", "^^", .wordBoundary, nil),
        ("/ad\\d+/", "   ^^", .unsupportedCharacterClass, nil),
        ("/ad[\\w]/", "    ^^", .atomCharacter, nil),
        ("ads(?=\\.js)", "   ^^^", .group, nil),
        ("ads(?<!x)y", "   ^^^^", .group, nil),
        ("(?<n>a)\\k<n>", "       ^^^^^", .backReference, nil),
        ("a^b", " ^", .misplacedStartOfLine, nil),
        ("ab$c", "  ^", .misplacedEndOfLine, nil),
        ("(ab$)", "   ^", .misplacedEndOfLine, nil),
        ("tracker\u{E9}.js", "       ^", .nonASCII, nil),
        ("a\\u00e9", " ^^^^^^", .nonASCII, nil),
        ("ads{2}", "   ^^^", .invalidQuantifier, nil),
        ("ads{1,3}?x", "   ^^^^^^", .invalidQuantifier, nil),
        ("(ads", "^", .yarrError, .missingParentheses),
        ("ads)", "   ^", .yarrError, .parenthesesUnmatched),
        ("[ads", "^", .yarrError, .characterClassUnmatched),
        ("[z-a]", " ^^^", .yarrError, .characterClassRangeOutOfOrder),
        ("a**", "  ^", .yarrError, .quantifierWithoutAtom),
        ("a{3,1}", " ^^^^^", .yarrError, .quantifierOutOfOrder),
        ("ads\\", "   ^", .yarrError, .escapeUnterminated),
        ("(?x)", "^^^", .yarrError, .parenthesesTypeInvalid),
        ("(?<=a)*", "      ^", .yarrError, .cantQuantifyAtom),
        ("\\k<a>(?<a>b)", "^^", .yarrError, .invalidNamedBackReference),
        // A Yarr syntax error wins over an earlier unsupported construct (WebKit `addPattern`).
        ("a|(b", "  ^", .yarrError, .missingParentheses),
    ])
    func failurePointsAtTheOffendingCharacters(
        pattern: String, marks: String, status: URLFilterParseStatus, syntaxError: YarrSyntaxError?
    ) {
        let found = problem(pattern)
        #expect(found?.status == status, "pattern \(pattern)")
        #expect(found?.span == span(marks), "pattern \(pattern)")
        #expect(found?.syntaxError == syntaxError, "pattern \(pattern)")
    }

    @Test func emptyPatternSpansItsFirstCharacter() {
        #expect(problem("") == URLFilterProblem(status: .emptyPattern, span: URLFilterSpan(offset: 0, length: 1)))
    }
}

@Suite("url-filter terms")
struct URLFilterTermTests {
    @Test func anUnanchoredFilterGetsALeadingDotStar() throws {
        guard case .filter(let filter) = URLFilterParser.parse("ads") else {
            Issue.record("expected a filter")
            return
        }
        #expect(filter.terms.count == 4)
        #expect(filter.terms[0].isKnownToMatchAnyString)
        #expect(!filter.hasBeginningOfLineAssertion)
    }

    @Test func trailingOptionalTermsAreDropped() {
        // WebKit test `TrailingTermsCarryingNoData`: "foob?a?r?" is compiled as "foo".
        guard case .filter(let filter) = URLFilterParser.parse("^foob?a?r?") else {
            Issue.record("expected a filter")
            return
        }
        #expect(filter.terms.count == 3)
    }

    @Test func caseInsensitiveLettersMatchBothCases() {
        guard case .filter(let filter) = URLFilterParser.parse("^a"),
              case .characterSet(let set) = filter.terms[0].atom else {
            Issue.record("expected a character set")
            return
        }
        #expect(set.contains(UInt8(ascii: "a")) && set.contains(UInt8(ascii: "A")))
        guard case .filter(let sensitive) = URLFilterParser.parse("^a", caseSensitive: true),
              case .characterSet(let sensitiveSet) = sensitive.terms[0].atom else {
            Issue.record("expected a character set")
            return
        }
        #expect(sensitiveSet.contains(UInt8(ascii: "a")) && !sensitiveSet.contains(UInt8(ascii: "A")))
    }

    @Test func dotNeverMatchesTheEndOfLineSentinel() {
        // WebKit test `DotDoesNotIncludeEndOfLine`.
        guard case .filter(let filter) = URLFilterParser.parse("^."),
              case .characterSet(let set) = filter.terms[0].atom else {
            Issue.record("expected a character set")
            return
        }
        #expect(!set.contains(0))
        #expect(set.matchedCharacters.count == 127)
    }
}
