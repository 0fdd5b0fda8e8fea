import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime
import URLFilter

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

    @Test func aMemoChangesNoFinding() {
        #expect(Self.examples.count > 50)
        var remembering = Linter()
        remembering.memo = LintMemo()
        // Twice over: the second pass finds every regex and entry known.
        for text in Self.examples + Self.examples {
            let fresh = Linter().lint(text: text, path: "policy.yaml").diagnostics
            #expect(remembering.lint(text: text, path: "policy.yaml").diagnostics == fresh, "\(text)")
        }
    }

    @Test func theMemoStaysAsLargeAsALintNeeds() {
        let memo = LintMemo()
        var remembering = Linter()
        remembering.memo = memo
        // A url-filter typed a character at a time: each lint brings a regex and an entry never seen.
        var filter = ""
        for character in "^https?://([^/]+\\.)?tracker\\.example\\.net/path/to/some/script\\.js".prefix(60) {
            filter.append(character)
            let text = "webpolicy: 1\nname: typed\ncontent-rules:\n" + (0..<20).map { "  - action: block\n    url-filter: 'rule-\($0)'\n" }.joined()
                + "  - action: block\n    url-filter: '\(filter.replacingOccurrences(of: "'", with: "''"))'\n"
            _ = remembering.lint(text: text, path: "policy.yaml")
            // Regexes, entries, trigger shapes, dead-rule keys, regex findings: each table bounded.
            #expect(memo.parses.count <= 2 * 21 + 1_024)
            #expect(memo.count <= 5 * (2 * 21 + 1_024))
        }
        #expect(memo.parses.count >= 21)
    }

    /// A policy of content rules with findings of the decoder's and of the rules' (a dead
    /// rule, a url-filter WebKit refuses, an unknown key), edited as a user edits: a character
    /// typed or taken away anywhere, a line added or removed, an alias, a flow list.
    static let editedPolicy: String = {
        var text = "webpolicy: 1\nname: edited\ncontent-rules:\n"
        for index in 0..<40 {
            switch index % 8 {
            case 0: text += "  - action: block\n    url-filter: ads\\.example\\.com/\(index)\n    resource-type: [script, image]\n"
            case 1: text += "  - action: block\n    url-filter: ads\\.example\\.com/\(index - 1)\n    resource-type: [script, image]\n"
            case 2: text += "  # a comment between rules\n  - action: css-display-none\n    selector: '#banner-\(index)'\n    url-filter: .*\n"
            case 3: text += "  - action: block\n    url-filter: 'track(er|ing)\\.\(index)'\n    if-domain: [\"news.example\"]\n"
            case 4: text += "  - action: block\n    url-filter: '[unclosed\(index)'\n"
            case 5: text += "  - {action: block, url-filter: flow\\.\(index)}\n"
            case 6: text += "  - action: block\n    url-filtr: typo\\.\(index)\n"
            default: text += "  - action: ignore-previous-rules\n    url-filter: ads\\.example\\.com/\(index - 7)\n"
            }
        }
        return text
    }()

    @Test func editsLintThroughTheMemoAsWithout() {
        var remembering = Linter()
        remembering.memo = LintMemo()
        var random = SplitMix64(state: 59)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        var text = Self.editedPolicy
        let breaking = ["'", "-", ":", "\\", "*", "&a ", "*a", "[", "]", "{", "}", "#", "\t", "  - action: block\n    url-filter: added\n"]
        var loaded = 0
        var unloadable = 0
        for step in 0..<200 {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let line = below(lines.count)
            switch below(6) {
            case 0:  // a character typed in a line (a value, a key: a finding, or none)
                var scalars = Array(lines[line].unicodeScalars)
                scalars.insert("x", at: below(scalars.count + 1))
                lines[line] = String(String.UnicodeScalarView(scalars))
            case 1: lines.insert("", at: line)  // a line break: everything below moves
            case 2: lines.insert("  # a note", at: line)
            case 3: lines.remove(at: line)
            case 4:  // a character taken away
                var scalars = Array(lines[line].unicodeScalars)
                if !scalars.isEmpty { scalars.remove(at: below(scalars.count)) }
                lines[line] = String(String.UnicodeScalarView(scalars))
            default:  // something that may leave the YAML half-typed
                var scalars = Array(lines[line].unicodeScalars)
                scalars.insert(contentsOf: breaking[below(breaking.count)].unicodeScalars, at: below(scalars.count + 1))
                lines[line] = String(String.UnicodeScalarView(scalars))
            }
            text = lines.joined(separator: "\n")
            let fresh = Linter().lintLoading(text: text, path: "policy.yaml")
            let remembered = remembering.lintLoading(text: text, path: "policy.yaml")
            #expect(remembered.report.diagnostics == fresh.report.diagnostics, "step \(step):\n\(text)")
            #expect(Self.summary(remembered.policy) == Self.summary(fresh.policy), "step \(step):\n\(text)")
            if (fresh.policy?.contentRules.count ?? 0) > 20 { loaded += 1; unloadable = 0 } else { unloadable += 1 }
            // A text that no longer loads goes back to the whole policy, as a user undoes.
            if unloadable == 3 { text = Self.editedPolicy; unloadable = 0 }
        }
        // Most steps edit a policy that loads: the memo is tried, not only the YAML errors.
        #expect(loaded > 120)
    }

    @Test(arguments: [
        ("a line added above the rules", "name: edited\n", "name: edited\ndescription: moved\n"),
        ("a rule's filter edited", "ads\\.example\\.com/8\n", "ads\\.example\\.com/88\n"),
        ("a rule indented further", "  - action: block\n    url-filter: 'track(er|ing)\\.11'", "  -   action: block\n      url-filter: 'track(er|ing)\\.11'"),
        ("an anchor and an alias", "  - action: block\n    url-filter: ads\\.example\\.com/16\n", "  - &shared\n    action: block\n    url-filter: ads\\.example\\.com/16\n  - *shared\n"),
        ("a directive", "webpolicy: 1\n", "%YAML 1.2\n---\nwebpolicy: 1\n"),
    ])
    func oneEditLintsAsAFreshLint(what: String, replaced: String, with replacement: String) {
        var remembering = Linter()
        remembering.memo = LintMemo()
        _ = remembering.lintLoading(text: Self.editedPolicy, path: "policy.yaml")
        let edited = Self.editedPolicy.replacingOccurrences(of: replaced, with: replacement)
        #expect(edited != Self.editedPolicy)
        let fresh = Linter().lintLoading(text: edited, path: "policy.yaml")
        let remembered = remembering.lintLoading(text: edited, path: "policy.yaml")
        #expect(remembered.report.diagnostics == fresh.report.diagnostics, "\(what)")
        #expect(Self.summary(remembered.policy) == Self.summary(fresh.policy), "\(what)")
    }

    /// An alias copies a node written elsewhere: the entry that holds it reads the same after
    /// its anchor changes, and must not be taken back as it was.
    @Test func anEntryWithAnAliasFollowsItsAnchor() {
        let before = """
        webpolicy: 1
        name: aliased
        content-rules:
          - action: block
            url-filter: one
            if-domain: &domains [a.example]
          - action: block
            url-filter: two
            if-domain: *domains
          - action: block
            url-filter: three

        """
        var remembering = Linter()
        remembering.memo = LintMemo()
        _ = remembering.lintLoading(text: before, path: "policy.yaml")
        let after = before.replacingOccurrences(of: "[a.example]", with: "[b.example]")
        let remembered = remembering.lintLoading(text: after, path: "policy.yaml")
        #expect(remembered.policy?.contentRules[1].trigger.conditions.first?.values.map(\.value) == ["b.example"])
    }

    /// What a policy's content rules say, every field and place (`dump` walks them all).
    static func summary(_ policy: Policy?) -> String {
        var text = ""
        dump(policy?.contentRules ?? [], to: &text)
        return text
    }

    /// A rule moved by the memo (a line added above it) is the rule decoded where it now is:
    /// every field that holds a position, moved.
    @Test func aMovedRuleIsTheRuleDecodedWhereItIs() throws {
        let rules = """
        content-rules:
          - id: every-field
            description: a rule with every trigger field
            action: css-display-none
            selector: '#ad'
            url-filter: ads\\.example
            url-filter-is-case-sensitive: true
            top-url-filter-is-case-sensitive: true
            frame-url-filter-is-case-sensitive: false
            resource-type: [image, script]
            load-type: [third-party]
            load-context: [child-frame]
            request-method: [get, post]
            if-domain: ["*news.example"]
          - action: block
            hosts: [tracker.example, ads.example]
            unless-top-url: ['^https://partner\\.example/']
          - action: notify
            notification: seen
            url-filter: seen
            if-frame-url: [frame\\.example]
          - action: block
            url-filter: last

        """
        let here = try #require(Linter().lintLoading(text: "webpolicy: 1\nname: moved\n" + rules, path: "policy.yaml").policy)
        let below = try #require(Linter().lintLoading(text: "webpolicy: 1\nname: moved\n\n# three lines\n\n" + rules, path: "policy.yaml").policy)
        #expect(here.contentRules.count == 4)
        for (rule, decoded) in zip(here.contentRules, below.contentRules) {
            var moved = "", expected = ""
            dump(try #require(rule.moved(byLines: 3)), to: &moved)
            dump(decoded, to: &expected)
            #expect(moved == expected)
        }
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
