import Foundation

/// What simulate decides for one request.
public struct RequestResult: Sendable {
    public var entry: TraceEntry
    public var topURL: CanonicalURL
    public var verdict: Verdict
    /// The URL the load continues with (upgraded by `make-https`).
    public var finalURL: CanonicalURL
    /// What the content rules did, as rule positions; the fields below read it.
    public var content = ContentMatches()
    /// The WebKit actions that survive, in the order block, block-cookies, css-display-none,
    /// make-https, notify (each once).
    public var actions: [ContentActionType] { content.actions }
    /// Every content rule whose trigger matched, in rule order, before ignore rules.
    public var matchedRules: [RuleOrigin] { content.matchedRules }
    /// The rule or policy entry that decided the verdict, if one did.
    public var decidedBy: RuleOrigin?
    /// The `ignore-previous-rules` that cancelled earlier matches, if one did.
    public var cancelledBy: RuleOrigin? { content.cancelledBy }
    /// Why, as data; `reason` says it in words (built only when shown).
    public var why: Why = .noRuleMatches
    public var reason: String {
        let prefix = cancelledBy.flatMap { $0 == decidedBy ? nil : "content rule \($0.described) cancels the rules before it; " } ?? ""
        return prefix + why.text
    }
    public var cookies: [String] = []
    public var hiddenSelectors: [String] { content.hiddenSelectors }
    public var notifications: [String] { content.notifications }
    /// What did not hold: empty when every expectation of the line holds.
    public var failures: [String] = []
    public var hasExpectations: Bool { entry.expect != nil || entry.cookies != nil || entry.actions != nil }
    public var passed: Bool { failures.isEmpty }
}

/// Replays trace lines through the verdict pipeline (docs/semantics.md): content rules with
/// WebKit's semantics, then — for a policy — the scheme gate, interception and cookies.
public struct Simulator: Sendable {
    /// The policy's lists (one per list after a split), or one bare list.
    private let lists: [ContentRuleEngine]
    private let policy: Policy?
    private let suffixes: PublicSuffixList
    /// How many cores a block of lines is spread over (1: all on the calling thread).
    public var parallelism = ProcessInfo.processInfo.activeProcessorCount

    /// Simulates a policy: its content rules as compile lowers and splits them.
    public init(policy: Policy, publicSuffixList: PublicSuffixList) {
        let plan = RuleListSplitter.plan(ContentBlockerLowering.lower(policy), target: policy.targetVersion, checkConflicts: false)
        var offset = 0
        var lists: [ContentRuleEngine] = []
        for rules in plan.lists {
            lists.append(ContentRuleEngine(rules: rules.enumerated().map { index, rule in
                (rule.json, RuleOrigin(index: offset + index, id: rule.source.id?.value, location: rule.source.location, expansion: rule.expansion))
            }))
            offset += rules.count
        }
        self.lists = lists
        self.policy = policy
        self.suffixes = publicSuffixList
    }

    /// Simulates a bare content-blocker list: only what WebKit itself does.
    public init(contentRules: consuming [(rule: JSONValue, origin: RuleOrigin)], publicSuffixList: PublicSuffixList) {
        lists = [ContentRuleEngine(rules: consume contentRules)]
        policy = nil
        suffixes = publicSuffixList
    }

    public func run(_ trace: Trace) -> [RequestResult] {
        var results: [RequestResult] = []
        results.reserveCapacity(trace.entries.count)
        run(trace) { results.append($0) }
        return results
    }

    /// Simulates the trace's requests in order, handing each result to `each` and keeping
    /// none: a trace of millions of requests needs memory for one block.
    public func run(_ trace: Trace, each: (RequestResult) -> Void) {
        var state = PageState()
        run(block: trace.entries, state: &state, each: each)
    }

    /// Simulates a streamed trace a block at a time, in order. The next block is read and
    /// parsed on another thread while this one is simulated: reading, checking and putting
    /// lines together in order are sequential work that would otherwise leave cores idle.
    public func run(_ stream: TraceStream, each: (RequestResult) -> Void) {
        var state = PageState()
        let prefetch = BlockPrefetch(stream)
        while let entries = prefetch.next() {
            run(block: entries, state: &state, each: each)
        }
    }

    /// What later lines of a trace inherit from its pages: only a `page` line changes it.
    struct PageState: Sendable {
        /// The document the main frame shows.
        var top: CanonicalURL?
        var pageMethod = "GET"
        var pagesLoaded = 0
    }

    /// Lines per chunk below which a block is simulated on one core.
    static let minimumChunk = 2_048

    /// Simulates one block of lines. Only `page` lines change what later lines see, so their
    /// results are decided first, in order; then the block's chunks run on every core, each
    /// from the state its first line inherits, and their results are handed on in order.
    private func run(block entries: [TraceEntry], state: inout PageState, each: (RequestResult) -> Void) {
        let chunkCount = parallelism <= 1 ? 1 : Swift.min(parallelism * 2, entries.count / Self.minimumChunk)
        guard chunkCount > 1 else {
            var caches = [ContentRuleEngine.ConditionCache](repeating: .init(), count: lists.count)
            var domains = DomainCache()
            for entry in entries { each(step(entry, &state, caches: &caches, domains: &domains)) }
            return
        }
        let bounds = (0...chunkCount).map { entries.count * $0 / chunkCount }
        var starts: [PageState] = []
        var pages: [Int: RequestResult] = [:]
        var caches = [ContentRuleEngine.ConditionCache](repeating: .init(), count: lists.count)
        var domains = DomainCache()
        for chunk in 0..<chunkCount {
            starts.append(state)
            for index in bounds[chunk]..<bounds[chunk + 1] where entries[index].kind == .page {
                pages[index] = step(entries[index], &state, caches: &caches, domains: &domains)
            }
        }
        let known = pages
        let startStates = starts
        let chunks = Array(0..<chunkCount).parallelMap(minimumChunk: 1) { chunk -> [RequestResult] in
            var state = startStates[chunk]
            var caches = [ContentRuleEngine.ConditionCache](repeating: .init(), count: lists.count)
            var domains = DomainCache()
            var results: [RequestResult] = []
            results.reserveCapacity(bounds[chunk + 1] - bounds[chunk])
            for index in bounds[chunk]..<bounds[chunk + 1] {
                let entry = entries[index]
                results.append(step(entry, &state, caches: &caches, domains: &domains, known: entry.kind == .page ? known[index] : nil))
            }
            return results
        }
        // Handed on from the buffers, without copying each result out of its array.
        for chunk in chunks {
            chunk.withUnsafeBufferPointer { results in
                for index in results.indices { each(results[index]) }
            }
        }
    }

    /// One line: its result (or the one already decided for it), and the state it leaves.
    private func step(_ entry: TraceEntry, _ state: inout PageState, caches: inout [ContentRuleEngine.ConditionCache], domains: inout DomainCache,
                      known: RequestResult? = nil) -> RequestResult {
        var result: RequestResult
        if let known {
            result = known
        } else {
            let isNavigation = entry.kind != .resource
            // A top-level navigation is its own main document (WebKit `ResourceLoadInfo`),
            // without its fragment (observed); the page it becomes keeps the fragment.
            let topURL = isNavigation ? entry.url.withoutFragment : (entry.top ?? state.top ?? entry.url)
            let context = LoadContext(topURL: topURL, shownDocument: state.top, pageMethod: state.pageMethod)
            result = evaluate(entry, context, isFirstPage: entry.kind == .page && state.pagesLoaded == 0, pagesLoaded: state.pagesLoaded,
                              caches: &caches, domains: &domains)
            check(&result)
        }
        if entry.kind == .page {
            if result.verdict != .block {
                state.top = result.finalURL
                state.pageMethod = entry.method?.uppercased() ?? "GET"
            }
            state.pagesLoaded += 1
        }
        return result
    }

    /// Where a trace line's load happens.
    private struct LoadContext {
        /// The main document's URL for this load.
        var topURL: CanonicalURL
        /// The document the main frame shows before this line, if any.
        var shownDocument: CanonicalURL?
        /// The method the current page was loaded with.
        var pageMethod: String
    }

    /// WebKit's `ResourceLoadInfo` for a trace line, as observed on a real WebKit (ci/webkit-conformance):
    /// - `frameURL` is the URL of the document the initiating frame shows *before* the load,
    ///   fragment included. For a navigation, that is the page being left — or, in a view
    ///   that has shown nothing yet (a trace's first page, a popup), the URL being loaded,
    ///   without its fragment; for an iframe's own document, the new frame's initial
    ///   `about:blank`, and its load-context is child-frame.
    /// - `request-method` is the method of the initiating document's load
    ///   (`initiatingDocumentLoader.request().httpMethod()`), not the subresource's: a fetch
    ///   POST from a page loaded by GET matches `"request-method": "get"`. A navigation has its
    ///   own method.
    private func contentLoad(for entry: TraceEntry, _ context: LoadContext, domains: inout DomainCache) -> ContentLoad {
        let isNavigation = entry.kind != .resource
        let frameURL: CanonicalURL
        let isMainFrame: Bool
        let method: String
        if isNavigation {
            (frameURL, isMainFrame, method) = (context.shownDocument ?? entry.url.withoutFragment, true, entry.method ?? "GET")
        } else if entry.resourceType == .childDocument {
            (frameURL, isMainFrame, method) = (.aboutBlank, false, entry.frame == nil ? context.pageMethod : "GET")
        } else if let frame = entry.frame {
            (frameURL, isMainFrame, method) = (frame, false, "GET")
        } else {
            (frameURL, isMainFrame, method) = (context.topURL, true, context.pageMethod)
        }
        return ContentLoad(
            url: entry.url, resourceType: entry.resourceType, topURL: context.topURL, frameURL: frameURL,
            isMainFrame: isMainFrame, method: RequestMethod(rawValue: method.lowercased()),
            isThirdParty: isNavigation ? false : isThirdParty(entry.url.host, top: context.topURL.host, domains: &domains))
    }

    /// A `window.open` is checked twice by WebKit (observed on a real WebKit): as a `popup`
    /// load of the opener, where only `block` counts (a `make-https` is logged but the new
    /// window loads the URL as given), then as the new window's own top-level navigation — a
    /// first-party `top-document` in a view that has shown nothing yet — where every action
    /// applies.
    private func popupNavigation(of entry: TraceEntry) -> ContentLoad {
        ContentLoad(url: entry.url, resourceType: .topDocument, topURL: entry.url.withoutFragment, frameURL: entry.url.withoutFragment,
                    isMainFrame: true, method: .get, isThirdParty: false)
    }

    /// Step 1 for one load: every list on its own (WebKit: ignore rules never cross lists).
    private func contentRules(_ load: ContentLoad, caches: inout [ContentRuleEngine.ConditionCache]) -> [ContentRuleEngine.ListResult] {
        lists.indices.map { lists[$0].evaluate(load, cache: &caches[$0]) }
    }

    private func evaluate(_ entry: TraceEntry, _ context: LoadContext, isFirstPage: Bool, pagesLoaded: Int, caches: inout [ContentRuleEngine.ConditionCache], domains: inout DomainCache) -> RequestResult {
        let isNavigation = entry.kind != .resource
        let topURL = context.topURL
        let load = contentLoad(for: entry, context, domains: &domains)
        var result = RequestResult(entry: entry, topURL: topURL, verdict: .allow, finalURL: entry.url)

        // 1. Content rules.
        result.content.lists = contentRules(load, caches: &caches)
        if entry.resourceType == .ping {
            // A hyperlink-auditing ping is checked twice (observed, ci/webkit-conformance): as
            // a `ping` on its URL as written, then as an `other` load on the URL it sends (no
            // fragment). Either check's actions apply — so an `ignore-previous-rules` typed
            // `ping` cancels a block in the first check only, and the second still blocks.
            // The URL it sends is the one the first check left: upgraded by its `make-https`
            // (observed: a ping to http://…#frag upgraded by a `#frag` rule is blocked by
            // `^https:` as `other`).
            var sentURL = entry.url.withoutFragment
            if result.content.has(.makeHTTPS), let secure = Self.upgradedURL(sentURL) { sentURL = secure }
            let sent = ContentLoad(url: sentURL, resourceType: .other, topURL: load.topURL, frameURL: load.frameURL,
                                   isMainFrame: load.isMainFrame, method: load.method, isThirdParty: load.isThirdParty)
            result.content.second = contentRules(sent, caches: &caches)
            result.content.combination = .ping
        }
        if entry.resourceType == .popup {
            if result.content.has(.block) {
                result.content.combination = .popupBlocked
            } else {
                var fresh = [ContentRuleEngine.ConditionCache](repeating: .init(), count: lists.count)
                result.content.second = contentRules(popupNavigation(of: entry), caches: &fresh)
                result.content.combination = .popupNavigated
            }
        }
        let blockCookies = result.content.has(.blockCookies)

        // `block` wins over `make-https` (WebKit test `StrictPrefixSeparatedMachines3`).
        if let block = result.content.first(.block) {
            result.verdict = .block
            result.decidedBy = block
            result.why = .blockedByRule(block)
            return result
        }
        var upgradedBy: RuleOrigin?
        // `make-https`: http and ws on their default port only (WebKit `applyResultsToRequest`).
        if let upgrade = result.content.first(.makeHTTPS), let secure = Self.upgradedURL(entry.url) {
            result.finalURL = secure
            result.verdict = .upgrade
            result.decidedBy = upgrade
            upgradedBy = upgrade
            result.why = .upgradedByRule(upgrade, to: result.finalURL.requestString)
        }
        guard let policy else {
            if upgradedBy == nil { result.why = result.content.lists.allSatisfy(\.matchedNothing) && result.content.second.allSatisfy(\.matchedNothing) ? .noRuleMatches : .noSurvivingRule }
            return result
        }


        // 2. The scheme gate, on the URL the load continues with.
        let url = result.finalURL
        switch url.scheme {
        case "https", "wss":
            if upgradedBy == nil { result.why = .secureScheme(url.scheme) }
        case "http", "ws":
            guard let entry = policy.httpAllowlist.first(where: { allowlistMatches($0, host: url.host ?? "") }) else {
                result.verdict = .block
                result.decidedBy = nil
                result.why = .insecureNotAllowlisted(scheme: url.scheme, host: url.host)
                return result
            }
            if upgradedBy == nil { result.why = .allowlisted(host: url.host ?? "", at: entry.location) }
            if upgradedBy == nil { result.decidedBy = RuleOrigin(index: -1, id: nil, location: entry.location) }
        case "about", "data", "blob":
            result.why = .webKitScheme(url.scheme)
        default:
            if let handler = policy.interception.first(where: { $0.scheme.value.lowercased() == url.scheme && interceptionMatches($0, url: url, method: entry.method) }) {
                result.verdict = .intercept
                result.decidedBy = origin(of: handler)
                result.why = .schemeHandler(origin(of: handler), scheme: url.scheme)
                return result
            }
            guard let allowed = policy.schemeAllowlist.first(where: { schemeAllowlistMatches($0, url: url) }) else {
                result.verdict = .block
                result.decidedBy = nil
                let listed = policy.schemeAllowlist.contains { $0.scheme.value.lowercased() == url.scheme }
                result.why = .schemeNotAllowed(scheme: url.scheme, listedElsewhere: listed)
                return result
            }
            result.why = .handedToSystem(scheme: url.scheme, at: allowed.location)
            result.decidedBy = RuleOrigin(index: -1, id: nil, location: allowed.location)
            return result
        }

        // 3. http(s) interception.
        if let handler = policy.interception.first(where: { $0.scheme.value.lowercased() == url.scheme && interceptionMatches($0, url: url, method: entry.method) }) {
            result.verdict = .intercept
            result.decidedBy = origin(of: handler)
            result.why = .intercepted(origin(of: handler))
            return result
        }

        // 4. Cookies that would be sent.
        if !blockCookies {
            result.cookies = policy.cookies.filter { cookie in
                cookieIsSent(cookie, url: url, load: load, isNavigation: isNavigation, isFirstPage: isFirstPage, pagesLoaded: pagesLoaded)
            }.map(\.name.value)
        }
        return result
    }

    /// What `make-https` makes of a URL: http and ws on their default port only (WebKit
    /// `applyResultsToRequest`); nil for any other.
    static func upgradedURL(_ url: CanonicalURL) -> CanonicalURL? {
        guard url.scheme == "http" || url.scheme == "ws", url.port == nil else { return nil }
        return url.upgraded(to: url.scheme == "http" ? "https" : "wss")
    }

    /// WebKit `isThirdParty` (see `PublicSuffixList.isThirdParty`), with the top's registrable
    /// domain remembered.
    private func isThirdParty(_ host: String?, top: String?, domains: inout DomainCache) -> Bool {
        let resource = host ?? ""
        guard let top else { return !resource.isEmpty }
        let domain = domains.registrableDomain(of: top, suffixes)
        if domain.isEmpty { return !resource.isEmpty }
        if resource == domain { return false }
        // `resource` ends with "." + domain, compared without building that string.
        let bytes = resource.utf8, suffix = domain.utf8
        guard bytes.count > suffix.count, bytes.reversed().starts(with: suffix.reversed()) else { return true }
        return bytes[bytes.index(bytes.endIndex, offsetBy: -suffix.count - 1)] != UInt8(ascii: ".")
    }

    private func check(_ result: inout RequestResult) {
        if let expected = result.entry.expect, expected != result.verdict {
            result.failures.append("expected \(expected.rawValue), got \(result.verdict.rawValue)")
        }
        if let expected = result.entry.actions, Set(expected) != Set(result.actions) {
            let shown = { (actions: [ContentActionType]) in actions.isEmpty ? "none" : actions.map(\.rawValue).joined(separator: ",") }
            result.failures.append("expected actions \(shown(expected)), got \(shown(result.actions))")
        }
        if let expected = result.entry.cookies, Set(expected) != Set(result.cookies) {
            let shown = { (names: [String]) in names.isEmpty ? "none" : names.joined(separator: ",") }
            result.failures.append("expected cookies \(shown(expected)), got \(shown(result.cookies))")
        }
    }

    // MARK: Policy matching

    /// `host` for that host only; `*.host` for its subdomains; `include-subdomains` for both.
    private func allowlistMatches(_ entry: HTTPAllowlistEntry, host: String) -> Bool {
        hostPatternMatches(entry.host.value, host: host, includeSubdomains: entry.includeSubdomains?.value ?? false)
    }

    private func hostPatternMatches(_ pattern: String, host: String, includeSubdomains: Bool = false) -> Bool {
        let pattern = pattern.lowercased()
        let host = host.lowercased()
        if pattern.hasPrefix("*.") { return host.hasSuffix(String(pattern.dropFirst(1))) }
        return host == pattern || (includeSubdomains && host.hasSuffix("." + pattern))
    }

    private func schemeAllowlistMatches(_ entry: SchemeAllowlistEntry, url: CanonicalURL) -> Bool {
        guard entry.scheme.value.lowercased() == url.scheme else { return false }
        if let hosts = entry.hosts?.value, !hosts.contains(where: { $0.value.lowercased() == (url.host ?? "").lowercased() }) { return false }
        if let paths = entry.paths?.value, !paths.contains(where: { url.path.hasPrefix($0.value) }) { return false }
        return true
    }

    private func interceptionMatches(_ rule: InterceptionRule, url: CanonicalURL, method: String?) -> Bool {
        if let hosts = rule.hosts?.value, !hosts.contains(where: { hostPatternMatches($0.value, host: url.host ?? "") }) { return false }
        if let paths = rule.paths?.value, !paths.contains(where: { url.path.hasPrefix($0.value) }) { return false }
        if let methods = rule.methods?.value, !methods.contains(where: { $0.value.rawValue.uppercased() == (method ?? "GET") }) { return false }
        return true
    }

    /// RFC 6265 domain and path matching, `Secure`, SameSite for cross-site loads, and how the
    /// app delivers the cookie (seed 001): the cookie store from the start; a `Cookie` header on
    /// the first top-level request only; `document.cookie` from a script that runs once the
    /// first document has loaded, so not on that document's own request.
    private func cookieIsSent(_ cookie: CookieRule, url: CanonicalURL, load: ContentLoad, isNavigation: Bool, isFirstPage: Bool, pagesLoaded: Int) -> Bool {
        guard let host = url.host, url.scheme == "https" || url.scheme == "http" || url.scheme == "wss" || url.scheme == "ws" else { return false }
        let domain = cookie.domain.value.lowercased().drop { $0 == "." }
        let domainMatches = (cookie.hostOnly?.value ?? false) ? host == domain : (host == domain || host.hasSuffix("." + domain))
        guard domainMatches else { return false }
        let path = cookie.path?.value ?? "/"
        guard url.path == path || (url.path.hasPrefix(path) && (path.hasSuffix("/") || url.path.dropFirst(path.count).hasPrefix("/"))) else { return false }
        if cookie.secure?.value ?? false, url.scheme != "https" && url.scheme != "wss" { return false }
        if let maxAge = cookie.maxAge?.value, maxAge <= 0 { return false }
        if load.isThirdParty {
            switch cookie.sameSite?.value {
            case .strict: return false
            case .lax: if !(isNavigation && (load.method ?? .get) == .get) { return false }
            case .none?, nil: break
            }
        }
        switch cookie.via?.value ?? .cookieStore {
        case .cookieStore: return true
        case .header: return isFirstPage
        case .documentCookie: return pagesLoaded > 0
        }
    }

    private func origin(of rule: InterceptionRule) -> RuleOrigin {
        RuleOrigin(index: -1, id: rule.id?.value, location: rule.location)
    }
}

/// Registrable domains by host: a trace revisits the same hosts, and consecutive requests
/// of a page share the top's.
struct DomainCache {
    private var last: (host: String, domain: String)?
    private var all: [String: String] = [:]

    mutating func registrableDomain(of host: String, _ suffixes: PublicSuffixList) -> String {
        if let last, last.host == host { return last.domain }
        let domain = all[host] ?? suffixes.registrableDomain(of: host)
        all[host] = domain
        last = (host, domain)
        return domain
    }
}

/// Why a request got its verdict.
public enum Why: Sendable {
    case blockedByRule(RuleOrigin)
    case upgradedByRule(RuleOrigin, to: String)
    case noRuleMatches
    case noSurvivingRule
    case secureScheme(String)
    case insecureNotAllowlisted(scheme: String, host: String?)
    case allowlisted(host: String, at: SourceLocation)
    case webKitScheme(String)
    case schemeHandler(RuleOrigin, scheme: String)
    case schemeNotAllowed(scheme: String, listedElsewhere: Bool)
    case handedToSystem(scheme: String, at: SourceLocation)
    case intercepted(RuleOrigin)

    public var text: String {
        switch self {
        case .blockedByRule(let rule): return "content rule \(rule.described) blocks it"
        case .upgradedByRule(let rule, let url): return "content rule \(rule.described) upgrades it to \(url)"
        case .noRuleMatches: return "no content rule matches it"
        case .noSurvivingRule: return "no surviving content rule blocks or upgrades it"
        case .secureScheme(let scheme): return "\(scheme) passes the scheme gate"
        case .insecureNotAllowlisted(let scheme, let host): return "plain \(scheme) to \(host ?? "no host"), which is not on the http-allowlist"
        case .allowlisted(let host, let location): return "\(host) is on the http-allowlist (\(location.described))"
        case .webKitScheme(let scheme): return "WebKit handles \(scheme): URLs itself"
        case .schemeHandler(let rule, let scheme): return "interception rule \(rule.described) handles the \(scheme) scheme"
        case .schemeNotAllowed(let scheme, let listed):
            return listed ? "the scheme-allowlist admits \(scheme): only for other hosts or paths" : "the scheme \(scheme) has no handler and is not on the scheme-allowlist"
        case .handedToSystem(let scheme, let location): return "the scheme-allowlist hands \(scheme): URLs to the system (\(location.described))"
        case .intercepted(let rule): return "interception rule \(rule.described) serves it"
        }
    }
}

extension RuleOrigin {
    /// `'id' (file:line) [expansion]`, or `#n` for a rule without an id.
    var described: String {
        var text = id.map { "'\($0)'" } ?? "#\(index + 1)"
        if let location { text += " (\(location.described))" }
        if let expansion { text += " [\(expansion)]" }
        return text
    }
}

extension SourceLocation {
    var described: String { "\(path):\(range.start.line)" }
}

/// Reads a stream's next block ahead, on another thread, one block at a time.
private final class BlockPrefetch: @unchecked Sendable {
    private let stream: TraceStream
    private var ahead: [TraceEntry]?
    private var done = false
    private let ready = DispatchSemaphore(value: 0)

    init(_ stream: TraceStream) {
        self.stream = stream
        fetch()
    }

    /// Starts reading the next block; only one read is under way at a time, and the stream is
    /// touched by nothing else meanwhile.
    private func fetch() {
        DispatchQueue.global().async { [self] in
            ahead = stream.nextEntries()
            ready.signal()
        }
    }

    /// The next block (waiting for it), or nil at the end.
    func next() -> [TraceEntry]? {
        guard !done else { return nil }
        ready.wait()
        let entries = ahead
        ahead = nil
        if entries == nil { done = true } else { fetch() }
        return entries
    }
}
