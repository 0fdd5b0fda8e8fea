import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// WebKit's rule limit per list: 150,000 from iOS 15, 50,000 before. Over it, compile splits
/// into numbered lists with a warning, unless the split separates an ignore rule from a rule it
/// acts on, which is an error naming both.
@Suite("Rule limits and splitting")
struct RuleLimitTests {
    /// These cases are about how lists split; the engine images of 150,000-rule lists would
    /// only cost the debug build minutes (images are tested in EngineImageTests).
    static let compiler: PolicyCompiler = {
        var compiler = PolicyCompiler()
        compiler.engineImages = false
        return compiler
    }()

    /// One block rule whose `hosts:` expand to `hostCount` rules, then `tail` (YAML rule entries).
    static func policy(target: String, hostCount: Int, tail: String) -> String {
        let hosts = (0..<hostCount).map { "h\($0).example" }.joined(separator: ", ")
        return """
        webpolicy: 1
        name: Big List
        target: { ios: "\(target)" }
        content-rules:
          - id: many-hosts
            action: block
            hosts: [\(hosts)]
        \(tail)
        """
    }

    static let trackerRule = """
          - id: tracker
            action: block
            url-filter: '^https://tracker\\.example/'
        """

    @Test func aPolicyOverTheLimitSplitsIntoNumberedListsWithAWarning() throws {
        let result = Self.compiler.compile(text: Self.policy(target: "16.0", hostCount: 150_000, tail: Self.trackerRule), path: "big.yaml")
        #expect(!result.hasErrors)
        let lists = result.artefacts.filter { $0.kind == .contentRules }
        #expect(lists.map(\.fileName) == ["big-list.content-rules-1.json", "big-list.content-rules-2.json"])
        #expect(lists.map { WebKitRuleListParser.parse($0.contents).keptRules.count } == [150_000, 1])
        let warnings = result.report.diagnostics.filter { $0.ruleID == "content-rule-limit" }
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("list 2 of 2") == true)
        #expect(warnings.first?.location.start.line == 8)  // the tracker rule opens list 2
        let manifest = try #require(result.artefacts.first { $0.kind == .manifest })
        #expect(manifest.contents.contains("big-list.content-rules-2.json"))
    }

    @Test func aSplitThatSeparatesAnIgnoreRuleFromWhatItCancelsIsAnError() throws {
        let tail = """
              - id: allow-h7
                action: ignore-previous-rules
                url-filter: '^https://h7\\.example/'
            """
        // Before iOS 15 (50,000 rules a list): the same split with a third of the rules to build.
        let result = Self.compiler.compile(text: Self.policy(target: "14.0", hostCount: 50_000, tail: tail), path: "big.yaml")
        #expect(result.hasErrors)
        #expect(result.artefacts.isEmpty)
        let error = try #require(result.report.diagnostics.first { $0.ruleID == "content-rule-split" })
        #expect(error.severity == .error)
        #expect(error.message.contains("'many-hosts' (host h7.example)"), "\(error.message)")
        #expect(error.location.start.line == 8)
        #expect(error.notes.first?.location?.start.line == 5)
    }

    @Test func anIgnoreRuleThatCannotMeetTheEarlierListSplitsSafely() {
        let tail = """
              - id: allow-partner
                action: ignore-previous-rules
                url-filter: '^https://partner\\.example\\.org/'
            """
        let result = Self.compiler.compile(text: Self.policy(target: "14.0", hostCount: 50_000, tail: tail), path: "big.yaml")
        #expect(!result.hasErrors, "\(result.report.diagnostics.map(\.message))")
        #expect(result.artefacts.filter { $0.kind == .contentRules }.count == 2)
    }

    @Test func beforeIOS15TheLimitIs50000() {
        let result = Self.compiler.compile(text: Self.policy(target: "14.0", hostCount: 100_000, tail: Self.trackerRule), path: "big.yaml")
        #expect(!result.hasErrors, "\(result.report.diagnostics.map(\.message))")
        let lists = result.artefacts.filter { $0.kind == .contentRules }
        #expect(lists.map { WebKitRuleListParser.parse($0.contents, maximumRuleCount: 50_000).keptRules.count } == [50_000, 50_000, 1])
        #expect(result.report.diagnostics.filter { $0.ruleID == "content-rule-limit" }.count == 2)
    }

    @Test func exactlyAtTheLimitThereIsOneList() {
        let result = Self.compiler.compile(text: Self.policy(target: "14.0", hostCount: 49_999, tail: Self.trackerRule), path: "big.yaml")
        #expect(result.report.diagnostics.isEmpty)
        #expect(result.artefacts.filter { $0.kind == .contentRules }.map(\.fileName) == ["big-list.content-rules.json"])
    }
}
