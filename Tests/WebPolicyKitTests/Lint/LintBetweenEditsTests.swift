import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// What an editor's server keeps from one lint to the next changes how fast a lint is, never
/// what it says: every rule's examples, linted one after another through one memo (as edits
/// of one buffer are), say what a lint without it says.
@Suite("Lints between edits")
struct LintBetweenEditsTests {
    static var examples: [String] {
        // Those with url regexes, but for the lists over WebKit's limit (a second of lint each).
        BuiltInRules.all.flatMap { $0.description.failing + $0.description.passing }.map(\.policyText)
            .filter { ($0.contains("url-filter") || $0.contains("-url")) && $0.utf8.count < 50_000 }
    }

    @Test func aMemoOfRegexParsesChangesNoFinding() {
        #expect(Self.examples.count > 50)
        let memo = URLFilterParseMemo()
        var remembering = Linter()
        remembering.parseMemo = memo
        // Twice over: the second pass finds every regex known.
        for text in Self.examples + Self.examples {
            let fresh = Linter().lint(text: text, path: "policy.yaml").diagnostics
            #expect(remembering.lint(text: text, path: "policy.yaml").diagnostics == fresh, "\(text)")
        }
    }

    @Test func theMemoStaysAsLargeAsAPolicysRegexes() {
        let memo = URLFilterParseMemo()
        var remembering = Linter()
        remembering.parseMemo = memo
        // A url-filter typed a character at a time: each lint brings a regex never seen.
        var filter = ""
        for character in "^https?://([^/]+\\.)?tracker\\.example\\.net/path/to/some/script\\.js".prefix(60) {
            filter.append(character)
            let text = "webpolicy: 1\nname: typed\ncontent-rules:\n" + (0..<20).map { "  - action: block\n    url-filter: 'rule-\($0)'\n" }.joined()
                + "  - action: block\n    url-filter: '\(filter.replacingOccurrences(of: "'", with: "''"))'\n"
            _ = remembering.lint(text: text, path: "policy.yaml")
            #expect(memo.count <= 2 * 21 + 1_024)
        }
        #expect(memo.count >= 21)
    }

    @Test(arguments: [
        ("webpolicy: 1\nname: x\n", "#", false),
        ("webpolicy: 1\nname: x  # webpolicy: is the version key\n", "#", true),
        ("# webpolicy:disable-next-line rule -- why\n", "#", true),
        ("  #\t  webpolicy:disable rule -- why\n", "#", true),
        ("let x = 1 // webpolicy:disable-next-line rule -- why\n", "//", true),
        ("webpolicy:", "#", false),
        ("", "#", false),
    ])
    func aSuppressionCommentIsFoundByItsBytes(text: String, marker: String, found: Bool) {
        #expect(text.containsBytes(of: "webpolicy:", afterMarker: marker) == found)
    }
}
