import Foundation
import Testing
import WebPolicyRuntime

/// `Tests/Fixtures/runtime/<case>/`: `compiled/` is what `webpolicy compile` writes for the
/// example policy of that name (kept fresh by a test in WebPolicyKitTests), `requests.json` the
/// questions an app asks, `decisions.json` the answers (record with WEBPOLICY_RECORD=1).
/// Loaded through the public API only, as an app would.
@Suite("Runtime fixtures")
struct RuntimeFixtureTests {
    static var cases: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: Fixtures.url("Tests/Fixtures/runtime").path)) ?? [])
            .filter { FileManager.default.fileExists(atPath: Fixtures.url("Tests/Fixtures/runtime/\($0)/requests.json").path) }.sorted()
    }

    @Test func everyExamplePolicyHasACase() {
        #expect(Self.cases.count >= 5, "\(Self.cases)")
    }

    @Test(arguments: cases)
    func decisionsMatchTheGolden(name: String) throws {
        let base = "Tests/Fixtures/runtime/\(name)"
        let policy = try RuntimePolicy(compiledDirectory: Fixtures.url(base + "/compiled"))
        let requests = try Self.requests(Fixtures.url(base + "/requests.json"))
        let decisions = requests.map { request -> JSONValue in
            let decision = policy.evaluate(request)
            var members: [(String, JSONValue)] = [("url", .string(request.url)), ("type", .string(request.type))]
            if let main = request.mainDocumentURL { members.append(("mainDocumentURL", .string(main))) }
            members += [
                ("verdict", .string(decision.verdict.rawValue)), ("finalURL", .string(decision.finalURL)),
                ("cookies", .array(decision.cookies.map(JSONValue.string))), ("actions", .array(decision.actions.map { .string($0.rawValue) })),
                ("reason", .string(decision.reason)),
            ]
            if let handler = decision.interception { members.append(("interception", .string(handler.id ?? handler.handler ?? handler.serve ?? handler.scheme))) }
            if let entry = decision.handedToSystem { members.append(("handedToSystem", .string(entry.scheme))) }
            return .object(members)
        }
        if let difference = Fixtures.compare(JSONValue.array(decisions).serialized(), golden: base + "/decisions.json") {
            Issue.record(Comment(rawValue: difference))
        }
    }

    static func requests(_ url: URL) throws -> [RuntimeRequest] {
        let items = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: String]])
        return items.map { item in
            RuntimeRequest(url: item["url"] ?? "", type: item["type"] ?? "other", mainDocumentURL: item["mainDocumentURL"],
                           frameURL: item["frameURL"], method: item["method"] ?? "GET")
        }
    }
}
