import Testing
import URLFilter
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// Every status of WebKit's URLFilterParser, written as a url-filter in each YAML scalar style:
/// the diagnostic must start on the offending character of the *file*, however the value was
/// quoted or escaped. Expected columns are computed here from the encoding, independently of
/// `ScalarSourceMap`.
@Suite("url-filter carets in YAML")
struct URLFilterCaretTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var status: URLFilterParseStatus
        var rule: String
        var pattern: String
        /// The offending character's offset in the pattern; nil when the whole value is meant.
        var offset: Int?
        var testDescription: String { "\(status) '\(pattern)'" }
    }

    static let cases: [Case] = [
        Case(status: .disjunction, rule: "url-filter-disjunction", pattern: "ads|track", offset: 3),
        Case(status: .wordBoundary, rule: "url-filter-word-boundary", pattern: "x\\bads", offset: 1),
        Case(status: .unsupportedCharacterClass, rule: "url-filter-character-class", pattern: "ad\\d+", offset: 2),
        Case(status: .atomCharacter, rule: "url-filter-class-in-set", pattern: "ad[\\w]", offset: 3),
        Case(status: .group, rule: "url-filter-group", pattern: "ads(?=x)", offset: 3),
        Case(status: .backReference, rule: "url-filter-back-reference", pattern: "(?<n>a)\\k<n>", offset: 7),
        Case(status: .misplacedStartOfLine, rule: "url-filter-misplaced-start", pattern: "a^b", offset: 1),
        Case(status: .misplacedEndOfLine, rule: "url-filter-misplaced-end", pattern: "a$b", offset: 1),
        Case(status: .nonASCII, rule: "url-filter-non-ascii", pattern: "café/é", offset: 3),
        Case(status: .invalidQuantifier, rule: "url-filter-quantifier", pattern: "ad{2}", offset: 2),
        Case(status: .yarrError, rule: "url-filter-syntax", pattern: "x(ads", offset: 1),
        Case(status: .matchesEverything, rule: "url-filter-matches-everything", pattern: "a*", offset: nil),
        Case(status: .emptyPattern, rule: "url-filter-empty", pattern: "", offset: nil),
    ]

    enum Style: CaseIterable { case plain, singleQuoted, doubleQuoted }

    /// The scalar as written in the given style, and the source column (1-based, relative to
    /// the scalar's first character) of each pattern character.
    static func encode(_ pattern: String, _ style: Style) -> (text: String, columns: [Int]) {
        var text = ""
        var columns: [Int] = []
        let open: String = style == .plain ? "" : (style == .singleQuoted ? "'" : "\"")
        text += open
        for (index, scalar) in pattern.unicodeScalars.enumerated() {
            columns.append(text.unicodeScalars.count + 1)
            switch style {
            case .plain:
                text.unicodeScalars.append(scalar)
            case .singleQuoted:
                text += scalar == "'" ? "''" : String(scalar)
            case .doubleQuoted:
                if scalar == "\\" { text += "\\\\" }
                else if scalar == "\"" { text += "\\\"" }
                else if !scalar.isASCII { text += "\\u" + hex(scalar.value, 4) }
                // Spell the first letter as a hex escape, so later columns shift by three.
                else if index == 0, ("a"..."z").contains(scalar) { text += "\\x" + hex(scalar.value, 2) }
                else { text.unicodeScalars.append(scalar) }
            }
        }
        text += open
        return (text, columns)
    }

    static func hex(_ value: UInt32, _ digits: Int) -> String {
        let digitsText = String(value, radix: 16)
        return String(repeating: "0", count: digits - digitsText.count) + digitsText
    }

    static let prefix = "    url-filter: "

    static func policy(_ scalar: String) -> String {
        "webpolicy: 1\nname: carets\ncontent-rules:\n  - action: block\n\(prefix)\(scalar)\n"
    }

    @Test(arguments: cases, Style.allCases)
    func caretLandsOnTheOffendingCharacter(testCase: Case, style: Style) throws {
        let (scalar, columns) = Self.encode(testCase.pattern, style)
        let report = Linter().lint(text: Self.policy(scalar), path: "carets.yaml")
        let scalarColumn = Self.prefix.count + 1
        if style == .plain && testCase.pattern.isEmpty {
            // An empty plain scalar is YAML null: the loader, not the regex parser, reports it.
            #expect(report.diagnostics.map(\.ruleID) == [LoaderCheck.wrongType.id])
            return
        }
        let found = report.diagnostics.filter { $0.ruleID == testCase.rule }
        #expect(found.count == 1, "\(report.diagnostics.map { "\($0.ruleID) \($0.location.start)" })")
        let expectedColumn = testCase.offset.map { scalarColumn + columns[$0] - 1 } ?? scalarColumn
        #expect(found.first?.location.start == SourcePosition(line: 5, column: expectedColumn), "scalar \(scalar)")
    }

    @Test func caretFollowsAnEscapedLineBreakOntoTheNextLine() throws {
        // "\" at the end of a double-quoted line joins the lines without a space.
        let text = "webpolicy: 1\nname: carets\ncontent-rules:\n  - action: block\n    url-filter: \"^https?://ads\\\\.\\\n      example|net/\"\n"
        let report = Linter().lint(text: text, path: "carets.yaml")
        let found = report.diagnostics.filter { $0.ruleID == "url-filter-disjunction" }
        #expect(found.map(\.location.start) == [SourcePosition(line: 6, column: 14)])
    }

    @Test func caretFollowsFoldedLinesOfAPlainScalar() throws {
        let text = "webpolicy: 1\nname: carets\ncontent-rules:\n  - action: block\n    url-filter: ^https?://ads\n      (a|b)\n"
        let report = Linter().lint(text: text, path: "carets.yaml")
        let found = report.diagnostics.filter { $0.ruleID == "url-filter-disjunction" }
        #expect(found.map(\.location.start) == [SourcePosition(line: 6, column: 9)])
    }

    @Test func caretInsideALiteralBlockScalar() throws {
        let text = "webpolicy: 1\nname: carets\ncontent-rules:\n  - action: block\n    url-filter: |-\n      ads|track\n"
        let report = Linter().lint(text: text, path: "carets.yaml")
        let found = report.diagnostics.filter { $0.ruleID == "url-filter-disjunction" }
        #expect(found.map(\.location.start) == [SourcePosition(line: 6, column: 10)])
    }

    @Test func everyRejectingStatusHasExactlyOneRule() {
        // ForwardReference cannot occur: WebKit calls Yarr with named forward references
        // disallowed, so `\k<a>(?<a>x)` is a Yarr syntax error (url-filter-syntax) instead.
        let reachable = URLFilterParseStatus.allCases.filter { $0 != .ok && $0 != .forwardReference }
        let covered = BuiltInRules.all.compactMap { ($0 as? any URLFilterStatusRule.Type)?.status }
        #expect(Set(covered) == Set(reachable))
        #expect(covered.count == reachable.count)
        #expect(Set(Self.cases.map(\.status)) == Set(reachable))
    }
}
