import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime
import TestSupport

/// The app's runtime and `webpolicy simulate` are one engine: every simulate fixture and
/// example trace, compiled as `webpolicy compile` writes it and loaded back through
/// `RuntimePolicy(compiledDirectory:)`, gets the same verdict, final URL, cookies and actions
/// line by line from a `RuntimePolicy.Session` as from simulate.
@Suite("Runtime agrees with simulate")
struct RuntimeAgreesWithSimulateTests {
    @Test(arguments: SimulateFixtureTests.traces)
    func compiledPolicyDecidesEveryLineAsSimulateDoes(path: String) throws {
        let outcome = try SimulationSession().run(paths: [Repository.path(path)])
        let results = outcome.report.all
        try #require(!results.isEmpty)
        let policyPath = try #require(TraceParser.parse(SourceFile(path: Repository.path(path), text: try String(contentsOfFile: Repository.path(path), encoding: .utf8))).trace.policyPath)
        let compiled = try Self.compile(policyPath)
        let session = try RuntimePolicy(compiledDirectory: compiled).makeSession()
        for result in results {
            let entry = result.entry
            // A binding is the app's call to `bind`; a message or a permission is asked of the
            // policy, as the app's message gate and permission decider ask it.
            let decision = entry.bind.map { bind in session.policy.bind(bind.role, to: bind.url.description) } ?? entry.permission.map { permission in
                session.policy.decidePermission(permission.kinds, frameOrigin: permission.frameURL.description, isMainFrame: permission.frame == .main)
            } ?? entry.message.map { message in
                session.policy.decideMessage(frameOrigin: message.frameURL.description, isMainFrame: message.frame == .main, handler: message.handler, world: message.world)
            } ?? session.evaluate(RuntimeRequest(url: entry.url.description, type: entry.typeName, mainDocumentURL: entry.top?.description,
                                                 frameURL: entry.frame?.description, method: entry.method ?? "GET", initiator: entry.initiator))
            let line = "\(path):\(entry.line)"
            #expect(decision.verdict == result.verdict, "\(line): runtime \(decision.verdict), simulate \(result.verdict) — \(decision.reason)")
            #expect(decision.finalURL == result.finalURL.requestString, "\(line)")
            #expect(decision.cookies == result.cookies, "\(line)")
            #expect(decision.actions == result.actions, "\(line)")
            #expect(decision.isHandedToSystem == result.decision.isHandedToSystem, "\(line)")
            #expect(decision.decision?.hiddenSelectors == result.hiddenSelectors, "\(line)")
            #expect(decision.decision?.decidedBy?.location?.start.line == result.decidedBy?.location?.start.line, "\(line)")
        }
    }

    /// `Tests/Fixtures/runtime/<name>/compiled` is exactly what compile writes for
    /// `policies/<name>.yaml` today.
    @Test(arguments: PolicyTraceCoverageTests.policies)
    func runtimeFixturesAreWhatCompileWrites(name: String) throws {
        let slug = name.replacingOccurrences(of: ".yaml", with: "")
        let result = try PolicyCompiler().compile(path: Repository.path("policies/" + name))
        #expect(!result.hasErrors)
        let folder = "Tests/Fixtures/runtime/\(slug)/compiled"
        if Repository.isRecording { try ArtefactWriter.write(result.artefacts, to: Repository.path(folder), slug: slug) }
        let present = try FileManager.default.contentsOfDirectory(atPath: Repository.path(folder)).sorted()
        #expect(present == result.artefacts.map(\.fileName).sorted(), "run with WEBPOLICY_RECORD=1 to update \(folder)")
        for artefact in result.artefacts {
            let written = FileManager.default.contents(atPath: Repository.path(folder + "/" + artefact.fileName)).map { [UInt8]($0) }
            #expect(written == artefact.data, "\(folder)/\(artefact.fileName) is stale: run with WEBPOLICY_RECORD=1")
        }
    }

    /// A policy compiled into a fresh folder, as `webpolicy compile --output` writes it.
    static func compile(_ policyPath: String) throws -> URL {
        let result = try PolicyCompiler().compile(path: policyPath)
        try #require(!result.hasErrors, "\(policyPath) does not compile")
        let folder = TemporaryFolder.location("webpolicy-agree")
        let slug = PolicyCompiler.slug(((policyPath as NSString).lastPathComponent as NSString).deletingPathExtension)
        try ArtefactWriter.write(result.artefacts, to: folder.path, slug: slug)
        return folder
    }
}
