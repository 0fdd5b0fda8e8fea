import Foundation
import Testing
import URLFilter
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// Every WebKit `ParsingFailures` / `PatternMatchingTheEmptyString` vector
/// (Tests/Fixtures/webkit/parsing-failures.json), written as a url-filter in a policy: lint
/// reports the rule for WebKit's status, on the url-filter's line and within its value; a
/// pattern WebKit accepts gets no url-filter error.
@Suite("WebKit ParsingFailures vectors through lint")
struct WebKitParsingFailuresThroughLintTests {
    static let vectors: [(pattern: String, status: URLFilterParseStatus)] = {
        let document = try! JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Repository.path("Tests/Fixtures/webkit/parsing-failures.json")))) as! [String: Any]
        return (document["vectors"] as! [[String: String]]).map { ($0["pattern"]!, URLFilterParseStatus(rawValue: $0["status"]!)!) }
    }()

    static func rule(for status: URLFilterParseStatus) -> String? {
        switch status {
        case .ok: return nil
        case .emptyPattern: return "url-filter-empty"
        default: return BuiltInRules.all.compactMap { $0 as? any URLFilterStatusRule.Type }.first { $0.status == status }?.description.id
        }
    }

    @Test(arguments: vectors.indices)
    func lintReportsWebKitsStatus(index: Int) throws {
        let (pattern, status) = Self.vectors[index]
        // A double-quoted YAML scalar takes JSON's escapes.
        let quoted = String(decoding: try JSONEncoder().encode(pattern), as: UTF8.self)
        let prefix = "    url-filter: "
        let policy = "webpolicy: 1\nname: vector\ncontent-rules:\n  - action: block\n\(prefix)\(quoted)\n"
        let report = Linter().lint(text: policy, path: "vector.yaml")
        let urlFilterFindings = report.diagnostics.filter { $0.ruleID.hasPrefix("url-filter-") }
        guard let expected = Self.rule(for: status) else {
            #expect(urlFilterFindings.isEmpty, "'\(pattern)': \(urlFilterFindings.map { "\($0.ruleID): \($0.message)" })")
            return
        }
        #expect(urlFilterFindings.map(\.ruleID) == [expected], "'\(pattern)' (\(status)): \(urlFilterFindings.map { "\($0.ruleID): \($0.message)" })")
        let valueColumns = (prefix.count + 1)...(prefix.count + quoted.unicodeScalars.count)
        for finding in urlFilterFindings {
            #expect(finding.location.start.line == 5 && valueColumns.contains(finding.location.start.column), "'\(pattern)' reported at \(finding.location.start)")
        }
    }
}
