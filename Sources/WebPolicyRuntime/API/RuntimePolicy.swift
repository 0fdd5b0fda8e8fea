import Foundation

/// A compiled policy, loaded in the app: the manifest and content-rule lists that
/// `webpolicy compile --output DIR` writes, deciding every load with the engine that
/// `webpolicy simulate` tests (`DecisionEngine`). Immutable and thread-safe.
///
///     let policy = try RuntimePolicy(compiledDirectory: Bundle.main.url(forResource: "policy", withExtension: nil)!)
///     policy.evaluate(RuntimeRequest(url: "http://ads.example/x.js", type: "script", mainDocumentURL: "https://app.example/")).verdict
public final class RuntimePolicy: Sendable {
    public let manifest: Manifest
    public let engine: DecisionEngine
    /// Each content-rule list as the manifest names it, with its JSON text: what a
    /// `WKContentRuleListStore` compiles under `identifier`.
    public let contentRuleLists: [CompiledList]
    /// Warm scratches for `evaluate`: a page's condition and universal-rule results carry
    /// over to its next request (2.5× faster on a real list), whichever thread asks.
    private let scratches = ScratchPool()

    public struct CompiledList: Sendable {
        public var identifier: String
        public var file: String
        public var json: String
    }

    /// Loads the folder `webpolicy compile --output DIR` wrote for one policy: its one
    /// `*.manifest.json` and the lists it names.
    public convenience init(compiledDirectory: URL, publicSuffixList: PublicSuffixList? = nil) throws(RuntimePolicyError) {
        let folder = compiledDirectory.path
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw .compiledDirectory(path: folder, problem: "cannot be read as a folder (\(error.localizedDescription))")
        }
        let manifests = names.filter { $0.hasSuffix(".manifest.json") && !$0.hasPrefix(".") }.sorted()
        guard manifests.count == 1 else {
            throw .compiledDirectory(path: folder, problem: manifests.isEmpty
                ? "holds no *.manifest.json; pass the folder `webpolicy compile --output` wrote"
                : "holds \(manifests.count) manifests (\(manifests.joined(separator: ", "))); give each policy its own folder")
        }
        let manifestData = try Self.read(compiledDirectory.appendingPathComponent(manifests[0]))
        let manifest = try Self.decode(manifestData)
        var lists: [Data] = []
        for list in manifest.contentRuleLists {
            let url = compiledDirectory.appendingPathComponent(list.file)
            guard FileManager.default.fileExists(atPath: url.path) else { throw .missingList(identifier: list.identifier, file: list.file) }
            lists.append(try Self.read(url))
        }
        try self.init(manifest: manifest, contentRuleLists: lists, publicSuffixList: publicSuffixList)
    }

    /// A manifest and its lists as bytes, the lists in the manifest's order.
    public convenience init(manifest: Data, contentRuleLists: [Data], publicSuffixList: PublicSuffixList? = nil) throws(RuntimePolicyError) {
        try self.init(manifest: try Self.decode(manifest), contentRuleLists: contentRuleLists, publicSuffixList: publicSuffixList)
    }

    private init(manifest: Manifest, contentRuleLists data: [Data], publicSuffixList: PublicSuffixList?) throws(RuntimePolicyError) {
        if data.count < manifest.contentRuleLists.count {
            let missing = manifest.contentRuleLists[data.count]
            throw .missingList(identifier: missing.identifier, file: missing.file)
        }
        var engines: [ContentRuleEngine] = []
        var compiled: [CompiledList] = []
        var offset = 0
        for (entry, bytes) in zip(manifest.contentRuleLists, data) {
            let rules = try Self.rules(of: entry, bytes, offset: offset)
            offset += rules.count
            engines.append(ContentRuleEngine(rules: rules))
            compiled.append(CompiledList(identifier: entry.identifier, file: entry.file, json: String(decoding: bytes, as: UTF8.self)))
        }
        let suffixes: PublicSuffixList
        if let publicSuffixList {
            suffixes = publicSuffixList
        } else {
            do { suffixes = try PublicSuffixList.bundled() } catch { throw .publicSuffixListUnavailable(error.description) }
        }
        self.manifest = manifest
        self.contentRuleLists = compiled
        engine = DecisionEngine(lists: engines, rules: manifest, publicSuffixList: suffixes)
    }

    private static func read(_ url: URL) throws(RuntimePolicyError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, problem: error.localizedDescription)
        }
    }

    private static func decode(_ data: Data) throws(RuntimePolicyError) -> Manifest {
        switch Manifest.decode(String(decoding: data, as: UTF8.self)) {
        case .success(let manifest): return manifest
        case .failure(let error):
            if let version = error.unsupportedVersion { throw .unsupportedManifestVersion(found: version, supported: Manifest.formatVersion) }
            throw .invalidManifest(message: error.message, line: error.position.line, column: error.position.column)
        }
    }

    /// A list's rules as WebKit reads them (the port of its parser: a list it refuses is
    /// refused here with its reason), each with the policy rule it came from.
    private static func rules(of entry: Manifest.ContentRuleList, _ bytes: Data, offset: Int) throws(RuntimePolicyError) -> [(rule: JSONValue, origin: RuleOrigin)] {
        if let expected = entry.sha256 {
            let found = SHA256.hex(bytes)
            if found != expected { throw .staleList(identifier: entry.identifier, file: entry.file, expectedSHA256: expected, foundSHA256: found) }
        }
        let parsed = WebKitRuleListParser.parse(String(decoding: bytes, as: UTF8.self))
        if let error = parsed.errors.first {
            throw .invalidList(identifier: entry.identifier, file: entry.file, message: error.message, line: error.range.start.line, column: error.range.start.column)
        }
        var sourceOfRule: [Int: Manifest.RuleSource] = [:]
        for source in entry.sources {
            for index in source.firstRule..<(source.firstRule + max(source.ruleCount, 0)) { sourceOfRule[index] = source }
        }
        return parsed.keptRules.map { kept in
            let source = sourceOfRule[kept.index]
            return (kept.rule.jsonValue, RuleOrigin(index: offset + kept.index, id: source?.id, location: source?.location))
        }
    }

    // MARK: Questions

    /// The verdict for one load, as in a fresh web view: one that shows `mainDocumentURL`
    /// (nil: nothing yet). Unknown types and URLs that do not parse are blocked, with the
    /// reason saying so: a policy fails closed.
    public func evaluate(_ request: RuntimeRequest) -> RuntimeDecision {
        var scratch = scratches.take() ?? engine.makeScratch()
        defer { scratches.give(back: scratch) }
        // The state carries the page, so the load needs no top of its own.
        let top = request.mainDocumentURL.flatMap { try? CanonicalURL.parse($0).get() }
        let state = WebViewState(top: top, pagesLoaded: top == nil ? 0 : 1)
        return evaluate(request, top: nil, in: state, scratch: &scratch).decision
    }

    /// The decision, and the load as the engine took it (for a session to advance its state).
    /// `top`: the page a subresource belongs to when it is not the state's (a trace's `top=`);
    /// a navigation's main document is itself.
    package func evaluate(_ request: RuntimeRequest, top: CanonicalURL?, in state: WebViewState, scratch: inout DecisionEngine.Scratch) -> (decision: RuntimeDecision, load: LoadRequest?) {
        guard let known = LoadKind.types[request.type] else {
            return (refusal(request.url, "unknown request type '\(request.type)'; one of \(RuntimeRequest.types.joined(separator: ", "))"), nil)
        }
        let url: CanonicalURL
        switch CanonicalURL.parse(request.url) {
        case .failure(let error): return (refusal(request.url, "the URL does not parse: \(error.message)"), nil)
        case .success(let parsed): url = parsed
        }
        let load = LoadRequest(kind: known.kind, resourceType: known.type, url: url, top: known.kind == .resource ? top : nil,
                               frame: request.frameURL.flatMap { try? CanonicalURL.parse($0).get() },
                               method: request.method.uppercased(), initiator: request.initiator)
        let decision = engine.decide(load, in: state, scratch: &scratch)
        return (RuntimeDecision(decision, engine: engine), load)
    }

    private func refusal(_ url: String, _ reason: String) -> RuntimeDecision {
        RuntimeDecision(verdict: .block, finalURL: url, cookies: [], reason: reason, actions: [], decision: nil)
    }

    /// Whether the app's handler may see a script message, as simulate decides a `message`
    /// line: `frameOrigin` is the sending frame's security origin or document URL
    /// (`WKScriptMessage.frameInfo.securityOrigin`), `isMainFrame` its `isMainFrame`,
    /// `handler` the message's `name`, `world` the content world it came from. A frame URL
    /// that does not parse is refused: a policy fails closed.
    public func decideMessage(frameOrigin: String, isMainFrame: Bool, handler: String, world: ContentWorldName = .page) -> RuntimeDecision {
        guard let url = try? CanonicalURL.parse(frameOrigin).get() else {
            return refusal(frameOrigin, "the frame's origin '\(frameOrigin)' does not parse, so no bridge can admit it")
        }
        var scratch = scratches.take() ?? engine.makeScratch()
        defer { scratches.give(back: scratch) }
        let message = ScriptMessage(frameURL: url, frame: isMainFrame ? .main : .child, handler: handler, world: world)
        return RuntimeDecision(engine.decide(message, scratch: &scratch), engine: engine)
    }

    /// `decideMessage(…).verdict == .allow`.
    public func allowsMessage(frameOrigin: String, isMainFrame: Bool, handler: String, world: ContentWorldName = .page) -> Bool {
        decideMessage(frameOrigin: frameOrigin, isMainFrame: isMainFrame, handler: handler, world: world).verdict == .allow
    }

    /// The seed SDK delegate's `shouldAllowHttpRequest`: whether the scheme gate lets an http(s)
    /// or ws(s) URL through — https and wss always, plain http and ws when the host is on the
    /// http-allowlist. false for other schemes (ask `allowsScheme`) and URLs that do not parse.
    public func allowsHTTPRequest(_ url: String) -> Bool {
        guard let parsed = try? CanonicalURL.parse(url).get() else { return false }
        switch parsed.scheme {
        case "https", "wss": return true
        case "http", "ws": return engine.allowlistEntry(for: parsed) != nil
        default: return false
        }
    }

    /// The seed SDK delegate's `shouldAllowScheme`: whether the scheme-allowlist hands the URL
    /// to the system (its scheme, and its host and path when the entry names them). false for
    /// web schemes (ask `allowsHTTPRequest`) and URLs that do not parse.
    public func allowsScheme(_ url: String) -> Bool {
        guard let parsed = try? CanonicalURL.parse(url).get() else { return false }
        return engine.schemeEntry(for: parsed) != nil
    }
}

extension RuntimeDecision {
    init(_ decision: Decision, engine: DecisionEngine) {
        self.init(verdict: decision.verdict, finalURL: decision.finalURL.requestString, cookies: decision.cookies, reason: decision.reason,
                  actions: decision.actions, interception: decision.interception, handedToSystem: decision.handedToSystem, decision: decision)
    }
}

/// Scratches handed out one caller at a time and taken back: any scratch gives the same
/// decisions, so which one a caller gets does not matter, only that no two share one.
private final class ScratchPool: @unchecked Sendable {
    private var free: [DecisionEngine.Scratch] = []
    private let lock = NSLock()
    private let limit = max(ProcessInfo.processInfo.activeProcessorCount, 2)

    func take() -> DecisionEngine.Scratch? {
        lock.lock()
        defer { lock.unlock() }
        return free.popLast()
    }

    func give(back scratch: DecisionEngine.Scratch) {
        lock.lock()
        defer { lock.unlock() }
        if free.count < limit { free.append(scratch) }
    }
}
