import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// Every WebKit `InvalidJSON` vector, written as a policy, must be refused by lint with the same
/// cause at the same place; a vector WebKit accepts must lint without errors. The policy is the
/// vector's own JSON in YAML flow style (JSON is YAML): each rule's trigger and action members
/// merged into one mapping, `type` renamed `action`, every value copied verbatim, so a column in
/// the JSON maps to a column in the policy. Vectors a policy cannot express (no array, a rule
/// or trigger that is not an object, broken JSON) are checked through `webpolicy import`.
@Suite("WebKit InvalidJSON vectors through lint")
struct WebKitVectorsThroughLintTests {
    /// The lint and loader checks that stand for each WebKit error.
    static let causes: [ContentExtensionError: Set<String>] = [
        .jsonInvalidURLFilterInTrigger: ["missing-key", "wrong-type", "url-filter-empty"],
        .jsonInvalidTriggerFlagsArray: ["wrong-type"],
        .jsonInvalidStringInTriggerFlagsArray: ["invalid-value", "wrong-type"],
        .jsonInvalidConditionList: ["wrong-type", "condition-list-empty"],
        .jsonDomainNotLowerCaseASCII: ["condition-domain-case"],
        .jsonMultipleConditions: ["trigger-multiple-conditions"],
        .jsonInvalidRequestMethod: ["invalid-value", "wrong-type"],
        .jsonInvalidActionType: ["invalid-value", "wrong-type", "missing-key"],
        .jsonInvalidCSSDisplayNoneActionType: ["missing-key", "wrong-type"],
        .jsonInvalidNotification: ["missing-key", "wrong-type"],
        .jsonInvalidRegex: [
            "url-filter-non-ascii", "url-filter-disjunction", "url-filter-word-boundary", "url-filter-character-class",
            "url-filter-class-in-set", "url-filter-group", "url-filter-back-reference", "url-filter-misplaced-start",
            "url-filter-misplaced-end", "url-filter-quantifier", "url-filter-syntax", "condition-domain-regex",
        ],
        .jsonRedirectMissing: ["missing-key", "wrong-type"],
        .jsonRedirectExtensionPathDoesNotStartWithSlash: ["redirect-extension-path"],
        .jsonRedirectURLSchemeInvalid: ["redirect-scheme"],
        .jsonRedirectToJavaScriptURL: ["redirect-javascript"],
        .jsonRedirectURLInvalid: ["redirect-url"],
        .jsonRedirectInvalidType: ["missing-key", "wrong-type", "unknown-key"],
        .jsonRedirectInvalidPort: ["redirect-port"],
        .jsonRedirectInvalidQuery: ["redirect-query"],
        .jsonRedirectInvalidFragment: ["redirect-fragment"],
        .jsonRemoveParametersNotStringArray: ["wrong-type"],
        .jsonAddOrReplaceParametersNotArray: ["wrong-type"],
        .jsonAddOrReplaceParametersKeyValueNotADictionary: ["wrong-type"],
        .jsonAddOrReplaceParametersKeyValueMissingKeyString: ["missing-key", "wrong-type"],
        .jsonAddOrReplaceParametersKeyValueMissingValueString: ["missing-key", "wrong-type"],
        .jsonModifyHeadersNotArray: ["wrong-type"],
        .jsonModifyHeadersInfoNotADictionary: ["wrong-type"],
        .jsonModifyHeadersMissingOperation: ["missing-key", "wrong-type"],
        .jsonModifyHeadersInvalidOperation: ["invalid-value"],
        .jsonModifyHeadersMissingHeader: ["missing-key", "wrong-type"],
        .jsonModifyHeadersMissingValue: ["missing-key", "wrong-type"],
        .jsonModifyHeadersInvalidPriority: ["missing-key", "wrong-type", "invalid-value"],
    ]

    /// A vector as a policy, with where each copied JSON span starts in it.
    struct Translation {
        var policy: String
        /// (JSON start column, JSON end column, policy column) of each copied member, key to value.
        var spans: [(key: String, jsonStart: Int, jsonEnd: Int, policyStart: Int)]
        /// The policy line holding the rules.
        static let line = 4
    }

    /// nil when a policy cannot express the vector.
    static func translate(_ json: String) -> Translation? {
        guard case .success(let root) = JSONDocument.parse(json), let rules = root.array, !rules.isEmpty else { return nil }
        let scalars = Array(json.unicodeScalars)
        func text(_ range: SourceRange) -> String {
            String(String.UnicodeScalarView(scalars[(range.start.column - 1)..<(range.end.column - 1)]))
        }
        var line = "content-rules: ["
        var spans: [(String, Int, Int, Int)] = []
        for (index, rule) in rules.enumerated() {
            guard let members = rule.members, let trigger = rule.member("trigger"), let triggerMembers = trigger.members else { return nil }
            guard let action = rule.member("action"), let actionMembers = action.members else { return nil }
            line += index == 0 ? "{" : ", {"
            var first = true
            for member in triggerMembers + actionMembers + members.filter({ $0.key != "trigger" && $0.key != "action" }) {
                if !first { line += ", " }
                first = false
                let policyStart = line.unicodeScalars.count + 1
                if member.key == "type" {
                    // `type` becomes `action`; the value keeps its column relative to the key's end.
                    line += "\"action\"" + text(SourceRange(start: member.keyRange.end, end: member.value.range.end))
                    spans.append((member.key, member.keyRange.end.column, member.value.range.end.column, policyStart + "\"action\"".count))
                } else {
                    line += text(SourceRange(start: member.keyRange.start, end: member.value.range.end))
                    spans.append((member.key, member.keyRange.start.column, member.value.range.end.column, policyStart))
                }
            }
            line += "}"
        }
        line += "]"
        return Translation(policy: "webpolicy: 1\nname: vector\ntarget: { ios: \"26.0\" }\n" + line + "\n", spans: spans)
    }

    @Test(arguments: WebKitInvalidJSONTests.vectors.indices)
    func lintAgreesWithWebKit(index: Int) throws {
        let (json, expected) = WebKitInvalidJSONTests.vectors[index]
        let webKit = WebKitRuleListParser.parse(json)
        guard let translation = Self.translate(json) else {
            try checkThroughImport(json, webKit: webKit)
            return
        }
        let report = Linter().lint(text: translation.policy, path: "vector.yaml")
        let errors = report.diagnostics.filter { $0.severity == .error }
        guard expected != "-", let issue = webKit.errors.first, case .error(let error) = issue.kind else {
            // Stricter by design: a key WebKit ignores is, in a policy, most likely a typo.
            let ignoredKeys = webKit.issues.filter { $0.kind == .ignored }.count
            #expect(errors.allSatisfy { $0.ruleID == "unknown-key" } && errors.count <= ignoredKeys,
                    "WebKit accepts \(json), lint says \(errors.map { "\($0.ruleID): \($0.message)" })")
            return
        }
        if errors.isEmpty {
            // YAML reads a plain `5` or `true` as text where the format wants text, so the policy
            // says "5" where the list said 5: a different list, and one WebKit must accept.
            let blamedText = json.unicodeScalars.dropFirst(issue.range.start.column - 1).prefix(1)
            #expect(blamedText.allSatisfy { "0123456789-tf".unicodeScalars.contains($0) }, "\(json): WebKit says \(error.rawValue), lint is silent")
            let compiled = PolicyCompiler().compile(text: translation.policy, path: "vector.yaml")
            let list = try #require(compiled.artefacts.first { $0.kind == .contentRules })
            #expect(WebKitRuleListParser.parse(list.contents).isAccepted)
            return
        }
        let causes = try #require(Self.causes[error], "no lint cause listed for \(error)")
        let matching = errors.filter { causes.contains($0.ruleID) }
        #expect(!matching.isEmpty, "\(json): WebKit says \(error.rawValue); lint says \(errors.map { "\($0.ruleID): \($0.message)" })")
        // Placed on the member WebKit blames, or, when WebKit blames a whole rule, trigger or
        // action (which the policy merges into one mapping), anywhere on the rule's line.
        // Two conditions: WebKit blames the second in its reading order, lint the second in the
        // file's; either names the conflict.
        let blamed = issue.range.start.column
        if let span = translation.spans.first(where: { $0.jsonStart <= blamed && blamed < $0.jsonEnd }) {
            let accepted = error == .jsonMultipleConditions ? translation.spans.filter { ConditionKind(rawValue: $0.key) != nil } : [span]
            #expect(matching.contains { diagnostic in
                diagnostic.location.start.line == Translation.line && accepted.contains { span in
                    (span.policyStart...(span.policyStart + span.jsonEnd - span.jsonStart)).contains(diagnostic.location.start.column)
                }
            }, "\(json): WebKit blames column \(blamed) (policy column \(span.policyStart + blamed - span.jsonStart)); lint reports \(matching.map { "\($0.location.start)" })")
        } else {
            #expect(matching.contains { $0.location.start.line == Translation.line })
        }
    }

    /// A vector no policy can express: `webpolicy import` refuses it with WebKit's error, where
    /// WebKit's parser places it.
    func checkThroughImport(_ json: String, webKit: WebKitRuleListParser.Result) throws {
        let result = ContentBlockerImporter.importList(SourceFile(path: "vector.json", text: json))
        guard let issue = webKit.errors.first else {
            #expect(result.policyText != nil, "WebKit accepts \(json), import refuses it: \(result.report.diagnostics.map(\.message))")
            return
        }
        #expect(result.policyText == nil)
        let first = try #require(result.report.diagnostics.first { $0.severity == .error })
        let expectedID = issue.kind == .error(.jsonInvalid) ? ImportCheck.jsonSyntax.id : ImportCheck.webKitError.id
        #expect(first.ruleID == expectedID)
        #expect(first.location.start == issue.range.start)
        if case .error(let error) = issue.kind, error != .jsonInvalid {
            #expect(first.message.contains(error.rawValue))
        }
    }
}
