import Foundation
import Testing
import WebPolicyRuntime

/// The decision's record: the steps that ran, in pipeline order, and the one that decided —
/// what `explain`, coverage and the expectation messages read (on the compiled webapp-plugin
/// policy: pages, otherwise: open-externally, app-bound domains, a scheme allowlist, a bridge
/// and a blocking content rule).
@Suite("Pipeline record")
struct PipelineRecordTests {
    static func record(_ url: String, type: String = "page", page: String? = nil) throws -> PipelineRecord {
        let policy = try RuntimePolicy(compiledDirectory: Fixtures.url("Tests/Fixtures/runtime/webapp-plugin/compiled"))
        let decision = policy.evaluate(RuntimeRequest(url: url, type: type, mainDocumentURL: page))
        return try #require(decision.decision, "\(decision.reason)").record
    }

    @Test func anAdmittedPageRunsEveryStepAndItsEntrySpeaksForIt() throws {
        let record = try Self.record("https://hackathon.example.com/attendees", page: "https://hackathon.example.com/")
        #expect(record.steps == [.navigation, .appBound, .contentRules, .schemeGate, .interception, .cookies])
        #expect(record.decidedAt == .navigation)
        #expect(!record.endedAtNavigation)
    }

    @Test func aLinkHandedToSafariEndsAtTheNavigationStep() throws {
        let record = try Self.record("https://news.example.org/story", page: "https://hackathon.example.com/")
        #expect(record.steps == [.navigation])
        #expect(record.decidedAt == .navigation)
        #expect(record.endedAtNavigation)
    }

    @Test func aBlockedScriptStopsAtTheContentRules() throws {
        let record = try Self.record("https://cdn.tracker.example.net/t.js", type: "script", page: "https://hackathon.example.com/")
        #expect(record.steps == [.contentRules])
        #expect(record.decidedAt == .contentRules)
    }

    @Test func aDeepLinkIsTheSchemeGatesAndSkipsWebKitsAppBoundCheck() throws {
        let record = try Self.record("navidapro://healthmagazin/details?article_id=606", page: "https://hackathon.example.com/")
        // The delegate cancels a scheme it hands to the system before WebKit's app-bound check.
        #expect(record.steps == [.navigation, .contentRules, .schemeGate])
        #expect(record.decidedAt == .schemeGate)
    }

    @Test func aMessageIsItsOwnStep() throws {
        let policy = try RuntimePolicy(compiledDirectory: Fixtures.url("Tests/Fixtures/runtime/webapp-plugin/compiled"))
        let decision = policy.decideMessage(frameOrigin: "https://hackathon.example.com", isMainFrame: true, handler: "AppInterface")
        let record = try #require(decision.decision).record
        #expect(record.steps == [.message])
        #expect(record.decidedAt == .message)
    }
}
