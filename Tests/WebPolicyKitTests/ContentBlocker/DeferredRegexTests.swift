import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// `simulate` builds a list's engine from the rules WebKit keeps without parsing their regexes
/// twice: the rule-list parser leaves the kept rules' regexes to the engine, which says whether
/// it met one WebKit refuses; only then is the list parsed again for WebKit's error.
@Suite("regexes left to the engine")
struct DeferredRegexTests {
    static func rules(_ triggers: [String], action: String = #"{"type": "block"}"#) -> String {
        "[" + triggers.map { #"{"trigger": \#($0), "action": \#(action)}"# }.joined(separator: ",\n") + "]"
    }

    static func engine(_ list: String) throws -> ContentRuleEngine {
        let parsed = WebKitRuleListParser.parse(try JSONDocument.parse(list).get(), deferringKeptRulesRegexes: true)
        #expect(parsed.isAccepted, "\(parsed.errors.map(\.message))")
        return ContentRuleEngine(ruleNodes: parsed.keptRules.map { ($0.rule, RuleOrigin(index: $0.index, id: nil, location: nil)) })
    }

    /// A refused regex in each place a kept rule holds one: its engine says so; the full parse
    /// refuses the list for it.
    @Test(arguments: [
        #"{"url-filter": "(a|b)x"}"#,
        #"{"url-filter": "x", "if-top-url": ["(a|b)"]}"#,
        #"{"url-filter": "x", "unless-top-url": ["ok", "a{2}"]}"#,
        #"{"url-filter": "x", "if-frame-url": ["\\bword"]}"#,
        #"{"url-filter": "x", "if-domain": ["a|b.example"]}"#,
    ])
    func aRefusedRegexOfAKeptRuleIsTheEnginesToFind(trigger: String) throws {
        let list = Self.rules([#"{"url-filter": "fine"}"#, trigger])
        #expect(try Self.engine(list).refusesAFilter)
        let full = WebKitRuleListParser.parse(list)
        #expect(full.errors.map(\.kind) == [.error(.jsonInvalidRegex)])
    }

    @Test func aListWithoutARefusedRegexHasAnEngineThatRefusesNone() throws {
        let list = Self.rules([#"{"url-filter": "^https?://([^/]+\\.)?ads\\.example[/:]"}"#, #"{"url-filter": ".*", "if-domain": ["*news.example"]}"#,
                               #"{"url-filter": "x", "unless-frame-url": ["frame\\.example"]}"#])
        #expect(try !Self.engine(list).refusesAFilter)
    }

    /// WebKit still compiles the regexes of a rule it drops (a css-display-none rule with a
    /// selector that does not parse): its refused regex refuses the list even when the kept
    /// rules' regexes are deferred.
    @Test func aDroppedRulesRefusedRegexIsFoundWithoutTheEngine() throws {
        let list = Self.rules([#"{"url-filter": "(a|b)x"}"#], action: #"{"type": "css-display-none", "selector": "a["}"#)
        let parsed = WebKitRuleListParser.parse(try JSONDocument.parse(list).get(), deferringKeptRulesRegexes: true)
        #expect(parsed.errors.map(\.kind) == [.error(.jsonInvalidRegex)])
    }

    /// WebKit's `getDomainList` regex, escaped unit by unit: a non-ASCII domain keeps its
    /// letters, and a `.` before a combining mark is escaped as WebKit's UTF-16 walk escapes it.
    @Test(arguments: [
        ("ads.example", #"[a-z][a-z+.-]*:\/\/ads\.example[:/]"#),
        ("*news.example", #"[a-z][a-z+.-]*:\/\/([^/]*\.)*news\.example[:/]"#),
        (#"a\{}[]?*$b"#, #"[a-z][a-z+.-]*:\/\/a\\\{\}\[]\?\*\$b[:/]"#),
        ("*", #"[a-z][a-z+.-]*:\/\/([^/]*\.)*[:/]"#),
        ("bücher.example", #"[a-z][a-z+.-]*:\/\/bücher\.example[:/]"#),
        ("a.\u{301}b", "[a-z][a-z+.-]*:\\/\\/a\\.\u{301}b[:/]"),
    ])
    func aDomainBecomesWebKitsRegex(domain: String, regex: String) {
        #expect(WebKitDomainCondition.regex(for: domain) == regex)
    }
}
