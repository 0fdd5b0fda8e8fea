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
    /// Each content-rule list as the manifest names it: what a `WKContentRuleListStore`
    /// compiles under `identifier` (its JSON is read when asked, `json()`).
    public let contentRuleLists: [CompiledList]
    /// How each list's engine was had, in the manifest's order: mapped from its engine image,
    /// or built from the list with the reason the image could not be used.
    public let listLoads: [ListLoad]
    /// Warm scratches for `evaluate`: a page's condition and universal-rule results carry
    /// over to its next request (2.5× faster on a real list), whichever thread asks.
    private let scratches = ScratchPool()
    /// The `runtime-hosts` roles the app has bound (`bind(_:to:)`), read whole by each decision.
    private let boundHosts = BoundHosts()

    public struct CompiledList: Sendable {
        public var identifier: String
        public var file: String
        /// Where the JSON text comes from: the folder's file, read and checked when asked, or
        /// the bytes the app gave.
        enum Source: Sendable {
            case file(URL, sha256: String?)
            case bytes(Data)
        }

        let source: Source

        /// The list's JSON text, for `WKContentRuleListStore`. A file is read now and checked
        /// against the manifest's SHA-256 (`staleList` when it is another list): with an engine
        /// image the list is not read at launch, only when WebKit must compile it.
        public func json() throws(RuntimePolicyError) -> String {
            switch source {
            case .bytes(let data):
                return String(decoding: data, as: UTF8.self)
            case .file(let url, let expected):
                let data = try RuntimePolicy.read(url)
                if let expected {
                    let found = SHA256.hex(data)
                    if found != expected { throw .staleList(identifier: identifier, file: file, expectedSHA256: expected, foundSHA256: found) }
                }
                return String(decoding: data, as: UTF8.self)
            }
        }
    }

    /// How one list's engine was had.
    public struct ListLoad: Sendable, Equatable {
        public enum Source: Sendable, Equatable {
            /// Mapped from the engine image beside the list, as compile wrote it.
            case image(file: String)
            /// Mapped from an image an earlier launch wrote into the cache folder.
            case cachedImage(path: String)
            /// Built from the list: `reason` says why no image could be used.
            case list(reason: String)
        }

        public var identifier: String
        public var source: Source
        /// Set when the engine was built from the list and written to the cache folder failed.
        public var cacheProblem: String?
    }

    /// Loads the folder `webpolicy compile --output DIR` wrote for one policy: its one
    /// `*.manifest.json`, the engine images beside its lists — mapped and used in place,
    /// nothing parsed — and for a list whose image is missing, stale, of another format or
    /// damaged, the list itself, from which the engine is built (`listLoads` says which and
    /// why). `imageCache`: a folder of the app's own (its Caches folder, say) where an engine
    /// built from a list is kept as an image, so that the next launch maps it instead.
    public convenience init(compiledDirectory: URL, publicSuffixList: PublicSuffixList? = nil, imageCache: URL? = nil) throws(RuntimePolicyError) {
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
        let manifestBytes = try Self.readBytes(compiledDirectory.appendingPathComponent(manifests[0]))
        // Per-rule sources are for rebuilding: an image holds them, so they are read only if
        // some list has no usable image.
        var manifest = try Self.decode(bytes: manifestBytes, readingSources: false)
        let loaded = try ListEngines.load(manifest, from: compiledDirectory, imageCache: imageCache) { () throws(RuntimePolicyError) -> Manifest in
            manifest = try Self.decode(bytes: manifestBytes, readingSources: true)
            return manifest
        }
        let lists = manifest.contentRuleLists.map { entry in
            CompiledList(identifier: entry.identifier, file: entry.file, source: .file(compiledDirectory.appendingPathComponent(entry.file), sha256: entry.sha256))
        }
        try self.init(manifest: manifest, engines: loaded.engines, lists: lists, loads: loaded.loads, publicSuffixList: publicSuffixList)
    }

    /// A manifest and its lists as bytes, the lists in the manifest's order: each engine is
    /// built from its list.
    public convenience init(manifest data: Data, contentRuleLists: [Data], publicSuffixList: PublicSuffixList? = nil) throws(RuntimePolicyError) {
        let manifest = try Self.decode(bytes: [UInt8](data), readingSources: true)
        if contentRuleLists.count < manifest.contentRuleLists.count {
            let missing = manifest.contentRuleLists[contentRuleLists.count]
            throw .missingList(identifier: missing.identifier, file: missing.file)
        }
        var engines: [ContentRuleEngine] = []
        var offset = 0
        for (entry, bytes) in zip(manifest.contentRuleLists, contentRuleLists) {
            let engine = try ListEngines.build(entry, bytes, offset: offset)
            offset += engine.count
            engines.append(engine)
        }
        let lists = zip(manifest.contentRuleLists, contentRuleLists).map { CompiledList(identifier: $0.identifier, file: $0.file, source: .bytes($1)) }
        let loads = manifest.contentRuleLists.map { ListLoad(identifier: $0.identifier, source: .list(reason: "the lists were given as bytes")) }
        try self.init(manifest: manifest, engines: engines, lists: lists, loads: loads, publicSuffixList: publicSuffixList)
    }

    private init(manifest: Manifest, engines: [ContentRuleEngine], lists: [CompiledList], loads: [ListLoad], publicSuffixList: PublicSuffixList?) throws(RuntimePolicyError) {
        let suffixes = publicSuffixList ?? PublicSuffixList.bundled()
        self.manifest = manifest
        contentRuleLists = lists
        listLoads = loads
        engine = DecisionEngine(lists: engines, rules: manifest, publicSuffixList: suffixes)
    }

    static func read(_ url: URL) throws(RuntimePolicyError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, problem: error.localizedDescription)
        }
    }

    static func readBytes(_ url: URL) throws(RuntimePolicyError) -> [UInt8] {
        switch FileBytes.read(url.path) {
        case .success(let bytes): return bytes
        case .failure(let problem): throw .unreadable(path: url.path, problem: problem.reason)
        }
    }

    private static func decode(bytes: [UInt8], readingSources: Bool) throws(RuntimePolicyError) -> Manifest {
        switch Manifest.decode(bytes: bytes, readingSources: readingSources) {
        case .success(let manifest): return manifest
        case .failure(let error):
            if let version = error.unsupportedVersion { throw .unsupportedManifestVersion(found: version, supported: Manifest.formatVersion) }
            throw .invalidManifest(message: error.message, line: error.position.line, column: error.position.column)
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
        var state = WebViewState(top: top, pagesLoaded: top == nil ? 0 : 1)
        state.bindings = bindings
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
        return RuntimeDecision(engine.decide(message, bindings: bindings, scratch: &scratch), engine: engine)
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
        return engine.allowsWebRequest(parsed, bindings: bindings)
    }

    /// The seed SDK delegate's `shouldAllowScheme`: whether the scheme-allowlist hands the URL
    /// to the system (its scheme, and its host and path when the entry names them). false for
    /// web schemes (ask `allowsHTTPRequest`) and URLs that do not parse.
    public func allowsScheme(_ url: String) -> Bool {
        guard let parsed = try? CanonicalURL.parse(url).get() else { return false }
        return engine.schemeEntry(for: parsed) != nil
    }
}

// MARK: Hosts named by role

extension RuntimePolicy {
    /// Binds a `runtime-hosts` role (`server` for `${server}`) to the server the app will use
    /// for it — the URL the user entered or chose; only its origin counts — as a trace's
    /// `bind` line does. The verdict is `allow` when the policy accepts the binding: the role
    /// is declared, the scheme is one of its `schemes`, and plain http goes to a host on the
    /// local network when the role says `http: local-network`. A refused binding leaves the
    /// role unbound (the reason says why), so every entry naming it matches no host until a
    /// binding is accepted. Thread-safe: decisions under way keep the bindings they started with.
    @discardableResult
    public func bind(_ role: String, to url: String) -> RuntimeDecision {
        guard let parsed = try? CanonicalURL.parse(url).get() else {
            boundHosts.update { $0[role] = nil }
            return RuntimeDecision(verdict: .block, finalURL: url, cookies: [],
                                   reason: "the URL '\(url)' does not parse, so ${\(role)} is not bound to it; ${\(role)} is unbound", actions: [], decision: nil)
        }
        let decision = engine.decide(BindRequest(role: role, url: parsed))
        boundHosts.update { $0[role] = decision.verdict == .allow ? decision.binding : nil }
        return RuntimeDecision(decision, engine: engine)
    }

    /// Unbinds a role: entries naming it match no host again (the user signed out).
    public func unbind(_ role: String) {
        boundHosts.update { $0[role] = nil }
    }

    /// The roles bound now.
    public var bindings: HostBindings { boundHosts.current }
}

/// The bindings behind a lock: written rarely (the user picks a server), read by every decision.
private final class BoundHosts: @unchecked Sendable {
    private var bindings = HostBindings()
    private let lock = NSLock()

    var current: HostBindings {
        lock.lock()
        defer { lock.unlock() }
        return bindings
    }

    func update(_ change: (inout HostBindings) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change(&bindings)
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
