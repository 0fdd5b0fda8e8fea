import Foundation
import Testing
import TestSupport
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// A summary takes the verdict alone of a plain subresource line (`countedVerdict`), without
/// the decision that holds the rules behind it. Line by line it must be the decision's
/// verdict: every simulate fixture's trace is replayed over its policy's content rules as bare
/// lists (what `--content-rules` simulates), both ways at once.
@Suite("Counted verdicts are the decisions' verdicts")
struct CountedVerdictTests {
    static let suffixes = PublicSuffixList.bundled()

    /// The fixture's trace and its policy's content rules as a bare-list engine.
    static func bareEngine(forTrace path: String) throws -> (engine: DecisionEngine, entries: [TraceEntry])? {
        let text = try String(contentsOfFile: Repository.path(path), encoding: .utf8)
        let trace = TraceParser.parse(SourceFile(path: Repository.path(path), text: text)).trace
        guard let policyPath = trace.policyPath, let policy = PolicyLoader().load(path: policyPath).policy else { return nil }
        let lists = PolicyBuild(policy).engine(publicSuffixList: suffixes).lists
        guard !lists.isEmpty else { return nil }
        return (DecisionEngine(lists: lists, rules: nil, publicSuffixList: suffixes), trace.entries)
    }

    /// The subresource types a plain line can have that are checked once.
    static let types: [ResourceType] = [.script, .image, .styleSheet, .font, .media, .fetch, .websocket, .svgDocument, .childDocument, .other, .cspReport]

    /// Replays `entries`, and at each line asks about its URL as every plain subresource type
    /// too, on the page shown then: each counted verdict is checked against the decision of
    /// the same load. Returns the verdicts counted.
    static func replay(_ entries: [TraceEntry], on engine: DecisionEngine, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Verdict] {
        var state = WebViewState()
        var decided = engine.makeScratch()
        var counted = engine.makeScratch()
        var verdicts: [Verdict] = []
        for entry in entries {
            if entry.message == nil, let page = engine.countedPage(for: state) {
                for request in [entry.load] + types.map({ LoadRequest(kind: .resource, resourceType: $0, url: entry.url) }) {
                    guard let verdict = engine.countedVerdict(request, on: page, scratch: &counted) else { continue }
                    let decision = engine.decide(request, in: state, scratch: &decided)
                    #expect(verdict == decision.verdict, "line \(entry.line): \(request.resourceType) \(request.url)", sourceLocation: sourceLocation)
                    verdicts.append(verdict)
                }
            }
            state.advance(past: entry.request, engine.decide(entry.request, in: state, scratch: &decided))
        }
        return verdicts
    }

    @Test(arguments: SimulateFixtureTests.traces)
    func aFixtureCountsTheDecisionsVerdicts(path: String) throws {
        guard let (engine, entries) = try Self.bareEngine(forTrace: path) else { return }
        _ = Self.replay(entries, on: engine)
    }

    /// The fixtures together count a good share of their lines, so the test above is not
    /// vacuous: blocks, upgrades and allows among them.
    @Test func theFixturesCountManyLoadsOfEveryVerdict() throws {
        var verdicts: [Verdict] = []
        for path in SimulateFixtureTests.traces {
            guard let (engine, entries) = try Self.bareEngine(forTrace: path) else { continue }
            verdicts += Self.replay(entries, on: engine)
        }
        #expect(verdicts.count > 1_000, "only \(verdicts.count) loads counted")
        for verdict: Verdict in [.allow, .block, .upgrade] {
            #expect(verdicts.filter { $0 == verdict }.count > 20, "\(verdict): \(verdicts.filter { $0 == verdict }.count)")
        }
    }

    /// What needs the whole pipeline is never counted: a policy's steps, navigations, pings
    /// and popups (checked twice), a load naming its own top or frame, a load before a page.
    @Test func loadsThatNeedTheWholePipelineAreNotCounted() throws {
        let rules: [(rule: JSONValue, origin: RuleOrigin)] = [
            (.object([("trigger", .object([("url-filter", .string("ads"))])), ("action", .object([("type", .string("block"))]))]), RuleOrigin(index: 0, id: nil, location: nil)),
        ]
        let bare = DecisionEngine(lists: [ContentRuleEngine(rules: rules)], rules: nil, publicSuffixList: Self.suffixes)
        let page = try #require(CanonicalURL.parse("https://news.example/").get() as CanonicalURL?)
        let ads = try CanonicalURL.parse("https://cdn.example/ads.js").get()
        #expect(bare.countedPage(for: WebViewState()) == nil, "no page shown yet")
        let counted = try #require(bare.countedPage(for: WebViewState(top: page, pagesLoaded: 1)))
        var scratch = bare.makeScratch()
        #expect(bare.countedVerdict(LoadRequest(kind: .resource, resourceType: .script, url: ads), on: counted, scratch: &scratch) == .block)
        for request in [
            LoadRequest(kind: .page, resourceType: .topDocument, url: ads),
            LoadRequest(kind: .navigation, resourceType: .topDocument, url: ads),
            LoadRequest(kind: .resource, resourceType: .ping, url: ads),
            LoadRequest(kind: .resource, resourceType: .popup, url: ads),
            LoadRequest(kind: .resource, resourceType: .script, url: ads, top: page),
            LoadRequest(kind: .resource, resourceType: .script, url: ads, frame: page),
        ] {
            #expect(bare.countedVerdict(request, on: counted, scratch: &scratch) == nil, "\(request.kind) \(request.resourceType)")
        }
        let withPolicy = DecisionEngine(lists: bare.lists, rules: Manifest(policyName: "p", targetIOS: "17.0", distribution: "app-store"), publicSuffixList: Self.suffixes)
        #expect(withPolicy.countedPage(for: WebViewState(top: page, pagesLoaded: 1)) == nil, "a policy decides past the content rules")
    }
}
