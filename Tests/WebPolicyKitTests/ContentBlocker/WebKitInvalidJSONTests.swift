import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

// Ported from WebKit's API tests, Tools/TestWebKitAPI/Tests/WebCore/ContentExtensions.cpp,
// `TEST_F(ContentExtensionTest, InvalidJSON)`: each list and the error WebKit's parser and
// compiler give it ("-" where WebKit accepts it), kept in a fixture file.

@Suite("WebKit InvalidJSON")
struct WebKitInvalidJSONTests {
    /// Tests/Fixtures/webkit/invalid-json.json, shared with the real-WebKit harness
    /// (ci/webkit-conformance), which checks the same expectations against WebKitGTK.
    static let vectors: [(json: String, expected: String)] = {
        let document = try! JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Repository.path("Tests/Fixtures/webkit/invalid-json.json")))) as! [String: Any]
        return (document["vectors"] as! [[String: String]]).map { ($0["json"]!, $0["error"]!) }
    }()

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
