import Testing
@testable import WebPolicyKit

// Ported from WebKit's API tests, Tools/TestWebKitAPI/Tests/WebCore/ContentExtensions.cpp,
// `TEST_F(ContentExtensionTest, InvalidJSON)`: each list and the error WebKit's parser and
// compiler give it ("-" where WebKit accepts it). The `if-ancestor-frame-url` vectors of that
// revision are left out: the key was reverted (WebKit PR #47679) and is ignored today.

@Suite("WebKit InvalidJSON")
struct WebKitInvalidJSONTests {
    static let vectors: [(json: String, expected: String)] = [
        (#"["#, "JSONInvalid"),
        (#"123"#, "JSONTopLevelStructureNotAnArray"),
        (#"{}"#, "JSONTopLevelStructureNotAnArray"),
        (#"[5]"#, "JSONInvalidRule"),
        (#"[]"#, "JSONContainsNoRules"),
        (#"[{"action":{"type":"block"},"trigger":5}]"#, "JSONInvalidTrigger"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":""}}]"#, "JSONInvalidURLFilterInTrigger"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":{}}}]"#, "JSONInvalidURLFilterInTrigger"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","load-type":{}}}]"#, "JSONInvalidTriggerFlagsArray"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","load-type":["invalid"]}}]"#, "JSONInvalidStringInTriggerFlagsArray"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","load-type":[5]}}]"#, "JSONInvalidStringInTriggerFlagsArray"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","load-type":5}}]"#, "JSONInvalidTriggerFlagsArray"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","load-type":"first-party"}}]"#, "JSONInvalidTriggerFlagsArray"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","load-type":null}}]"#, "JSONInvalidTriggerFlagsArray"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","load-type":false}}]"#, "JSONInvalidTriggerFlagsArray"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","resource-type":{}}}]"#, "JSONInvalidTriggerFlagsArray"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","resource-type":["invalid"]}}]"#, "JSONInvalidStringInTriggerFlagsArray"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","resource-type":[5]}}]"#, "JSONInvalidStringInTriggerFlagsArray"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","resource-type":5}}]"#, "JSONInvalidTriggerFlagsArray"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","resource-type":"document"}}]"#, "JSONInvalidTriggerFlagsArray"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","resource-type":null}}]"#, "JSONInvalidTriggerFlagsArray"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","resource-type":false}}]"#, "JSONInvalidTriggerFlagsArray"),
        (#"[{"action":{"type":"notify"},"trigger":{"url-filter":".*"}}]"#, "JSONInvalidNotification"),
        (#"[{"action":{"type":"notify","notification":5},"trigger":{"url-filter":".*"}}]"#, "JSONInvalidNotification"),
        (#"[{"action":{"type":"notify","notification":[]},"trigger":{"url-filter":".*"}}]"#, "JSONInvalidNotification"),
        (#"[{"action":{"type":"notify","notification":"here's my notification"},"trigger":{"url-filter":".*"}}]"#, "-"),
        (#"[{"action":{"type":"notify","notification":"\u1234"},"trigger":{"url-filter":".*"}}]"#, "-"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":".*","request-method":"foo"}}]"#, "JSONInvalidRequestMethod"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":".*","request-method":null}}]"#, "JSONInvalidRequestMethod"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":".*","request-method":false}}]"#, "JSONInvalidRequestMethod"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":".*","request-method":1}}]"#, "JSONInvalidRequestMethod"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":".*","request-method":[]}}]"#, "JSONInvalidRequestMethod"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":".*","request-method":{}}}]"#, "JSONInvalidRequestMethod"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":{}}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":[5]}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":["a"]}}]"#, "-"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":"a"}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":false}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":null}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":{}}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":[5]}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":[""]}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":"a"}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":null}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":false}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":["A"]}}]"#, "JSONDomainNotLowerCaseASCII"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":["\u00DC"]}}]"#, "JSONDomainNotLowerCaseASCII"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":["0"]}}]"#, "-"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":["a"]}}]"#, "-"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":[],"unless-domain":["a"]}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":[]}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":5}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":5}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":5,"unless-domain":5}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":[]}}]"#, "JSONInvalidConditionList"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":["a"],"unless-domain":[]}}]"#, "JSONMultipleConditions"),
        (#"[{"action":5,"trigger":{"url-filter":"webkit.org"}}]"#, "JSONInvalidAction"),
        (#"[{"action":{"type":"invalid"},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONInvalidActionType"),
        (#"[{"action":{"type":"css-display-none"},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONInvalidCSSDisplayNoneActionType"),
        (#"[{"action":{"type":"ignore-previous-rules"},"trigger":{"url-filter":"webkit.org"}},{"action":{"type":"css-display-none","selector":".hidden"},"trigger":{"url-filter":".*"}}]"#, "-"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":".*","if-domain":["a"]}}]"#, "-"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":".*","unless-domain":["a"]}}]"#, "-"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"["}}]"#, "JSONInvalidRegex"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":["a"],"unless-domain":["a"]}}]"#, "JSONMultipleConditions"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-top-url":["a"],"unless-top-url":[]}}]"#, "JSONMultipleConditions"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-frame-url":["a"],"unless-frame-url":[]}}]"#, "JSONMultipleConditions"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-top-url":["a"],"if-frame-url":[]}}]"#, "JSONMultipleConditions"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-top-url":["a"],"unless-top-url":["a"]}}]"#, "JSONMultipleConditions"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":["a"],"if-top-url":["a"]}}]"#, "JSONMultipleConditions"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-top-url":[],"unless-domain":["a"]}}]"#, "JSONMultipleConditions"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-top-url":["a"],"if-domain":["a"]}}]"#, "JSONMultipleConditions"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-top-url":["a"]}}, {"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-domain":["a"]}}]"#, "-"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","if-top-url":["a"]}}, {"action":{"type":"block"},"trigger":{"url-filter":"webkit.org","unless-domain":["a"]}}]"#, "-"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"test\\.html", "unless-top-url":["["]}}]"#, "JSONInvalidRegex"),
        (#"[{"action":{"type":"block"},"trigger":{"url-filter":"webkit.org", "unexpected-identifier-should-be-ignored":5}}]"#, "-"),
        (#"[{"action":{"type":"redirect"},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONRedirectMissing"),
        (#"[{"action":{"type":"redirect","redirect":{}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONRedirectInvalidType"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"query-transform":{"remove-parameters":5}}}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONRemoveParametersNotStringArray"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"query-transform":{"remove-parameters":[5]}}}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONRemoveParametersNotStringArray"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"query-transform":{"add-or-replace-parameters":5}}}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONAddOrReplaceParametersNotArray"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"query-transform":{"add-or-replace-parameters":[5]}}}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONAddOrReplaceParametersKeyValueNotADictionary"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"query-transform":{"add-or-replace-parameters":[{}]}}}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONAddOrReplaceParametersKeyValueMissingKeyString"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"query-transform":{"add-or-replace-parameters":[{"key":5}]}}}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONAddOrReplaceParametersKeyValueMissingKeyString"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"query-transform":{"add-or-replace-parameters":[{"key":"k","value":5}]}}}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONAddOrReplaceParametersKeyValueMissingValueString"),
        (#"[{"action":{"type":"redirect","redirect":{"url":"https://127..1/"}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONRedirectURLInvalid"),
        (#"[{"action":{"type":"redirect","redirect":{"url":"JaVaScRiPt:dostuff"}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONRedirectToJavaScriptURL"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"port":"not a number"}}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONRedirectInvalidPort"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"port":"65536"}}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONRedirectInvalidPort"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"query":"no-question-mark"}}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONRedirectInvalidQuery"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"fragment":"no-number-sign"}}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONRedirectInvalidFragment"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"port":"65535"}}},"trigger":{"url-filter":"webkit.org"}}]"#, "-"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"port":""}}},"trigger":{"url-filter":"webkit.org"}}]"#, "-"),
        (#"[{"action":{"type":"redirect","redirect":{"extension-path":"/does/start/with/slash/"}},"trigger":{"url-filter":"webkit.org"}}]"#, "-"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"scheme":"!@#$%"}}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONRedirectURLSchemeInvalid"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"scheme":"JaVaScRiPt"}}},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONRedirectToJavaScriptURL"),
        (#"[{"action":{"type":"redirect","redirect":{"transform":{"scheme":"About"}}},"trigger":{"url-filter":"webkit.org"}}]"#, "-"),
        (#"[{"action":{"type":"modify-headers","priority":2,"request-headers":5},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONModifyHeadersNotArray"),
        (#"[{"action":{"type":"modify-headers","priority":2,"request-headers":[5]},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONModifyHeadersInfoNotADictionary"),
        (#"[{"action":{"type":"modify-headers","priority":2,"request-headers":[{}]},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONModifyHeadersMissingOperation"),
        (#"[{"action":{"type":"modify-headers","priority":2,"request-headers":[{"operation":"remove"}]},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONModifyHeadersMissingHeader"),
        (#"[{"action":{"type":"modify-headers","priority":2,"request-headers":[{"operation":"set","header":"testheader"}]},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONModifyHeadersMissingValue"),
        (#"[{"action":{"type":"modify-headers","priority":2,"request-headers":[{"operation":"invalid","header":"testheader"}]},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONModifyHeadersInvalidOperation"),
        (#"[{"action":{"type":"modify-headers","priority":"","request-headers":[{"operation":"remove","header":"testheader"}]},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONModifyHeadersInvalidPriority"),
        (#"[{"action":{"type":"modify-headers","priority":-1,"request-headers":[{"operation":"remove","header":"testheader"}]},"trigger":{"url-filter":"webkit.org"}}]"#, "JSONModifyHeadersInvalidPriority"),
    ]

    @Test(arguments: vectors.indices)
    func webKitErrorForList(index: Int) {
        let (json, expected) = Self.vectors[index]
        let result = WebKitRuleListParser.parse(json)
        if expected == "-" {
            #expect(result.errors.isEmpty, "\(json): \(result.errors.map(\.message))")
        } else {
            #expect(result.errors.first.map { "\($0.kind)" } == "\(WebKitParseIssue.Kind.error(ContentExtensionError(rawValue: expected)!))", "\(json): \(result.errors.map(\.message))")
        }
    }

    @Test func ruleCountLimitIsInclusive() {
        let rule = #"{"action":{"type":"block"},"trigger":{"url-filter":"a"}}"#
        let list = { (count: Int) in "[" + Array(repeating: rule, count: count).joined(separator: ",") + "]" }
        #expect(WebKitRuleListParser.parse(list(150_000)).errors.isEmpty)
        #expect(WebKitRuleListParser.parse(list(150_001)).errors.first?.kind == .error(.jsonTooManyRules))
        #expect(WebKitRuleListParser.parse(list(50_001), maximumRuleCount: 50_000).errors.first?.kind == .error(.jsonTooManyRules))
    }
}
