import Foundation
import Testing
@testable import URLFilter

// Ported from WebKit's API tests, Tools/TestWebKitAPI/Tests/WebCore/ContentExtensions.cpp:
// `TEST_F(ContentExtensionTest, ParsingFailures)` and `PatternMatchingTheEmptyString`, which
// call `URLFilterParser::addPattern(pattern, /* caseSensitive */ false, 0)` and compare statuses.
// The vectors live in Tests/Fixtures/webkit/parsing-failures.json, shared with the lint tests.

private func status(_ pattern: String) -> URLFilterParseStatus {
    URLFilterParser.parse(pattern).status
}

@Suite("WebKit ParsingFailures")
struct WebKitParsingFailuresTests {
    static let vectors: [(pattern: String, status: URLFilterParseStatus)] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/webkit/parsing-failures.json")
        let document = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        return (document["vectors"] as! [[String: String]]).map { ($0["pattern"]!, URLFilterParseStatus(rawValue: $0["status"]!)!) }
    }()

    @Test func theVectorFileHoldsEveryCase() {
        #expect(Self.vectors.count == 66)
        #expect(Set(Self.vectors.map(\.status)).count >= 12)
    }

    @Test(arguments: vectors.indices)
    func parsingFailures(index: Int) {
        let (pattern, expected) = Self.vectors[index]
        #expect(status(pattern) == expected, "pattern \(pattern)")
    }

    @Test func patternTooLargeIsAYarrError() {
        // WebKit test `DeepNFA` notes that a 2,000,000-character pattern fails in Yarr.
        let pattern = String(repeating: "a", count: 2_000_000)
        let result = URLFilterParser.parse(pattern)
        guard case .rejected(let problem) = result else {
            Issue.record("expected a rejection")
            return
        }
        #expect(problem.status == .yarrError)
        #expect(problem.syntaxError == .patternTooLarge)
    }
}
