import Foundation

/// The verdict pipeline (docs/semantics.md), the one place a verdict is computed: content
/// rules with WebKit's semantics, then — for a policy — the scheme gate, interception and
/// cookies. `webpolicy simulate` replays traces through it; `RuntimePolicy` answers an app's
/// questions with it. Immutable once built; each caller keeps its own `Scratch`.
public final class DecisionEngine: Sendable {
    /// The content-rule lists, in the order the web view adds them.
    public let lists: [ContentRuleEngine]
    /// The allowlists, interception and cookies; nil for a bare content-blocker list, where
    /// only what WebKit itself does is decided.
    public let rules: Manifest?
    public let suffixes: PublicSuffixList
    /// Step 0: `navigation:` and App-Bound Domains.
    let navigation: NavigationGate
    /// Script messages: `bridges:`, `webview.javascript` and App-Bound Domains.
    let messages: MessageGate

    public init(lists: [ContentRuleEngine], rules: Manifest?, publicSuffixList: PublicSuffixList) {
        self.lists = lists
        self.rules = rules
        suffixes = publicSuffixList
        navigation = NavigationGate(rules: rules?.navigation, appBound: rules?.appBoundDomains, suffixes: publicSuffixList)
        messages = MessageGate(bridges: rules?.bridges ?? [], webView: rules?.webView, appBound: rules?.appBoundDomains, suffixes: publicSuffixList)
    }

    /// What one caller remembers between requests: condition results per list and registrable
    /// domains. Any scratch gives the same decisions; a warm one gives them sooner.
    public struct Scratch: Sendable {
        var conditions: [ContentRuleEngine.ConditionCache]
        var domains = DomainCache()

        public init(listCount: Int) {
            conditions = [ContentRuleEngine.ConditionCache](repeating: .init(), count: listCount)
        }
    }

    public func makeScratch() -> Scratch { Scratch(listCount: lists.count) }

    /// Where a load happens.
    private struct LoadContext {
        /// The main document's URL for this load.
        var topURL: CanonicalURL
        /// The document the main frame shows before this load, if any.
        var shownDocument: CanonicalURL?
        /// The method the current page was loaded with.
        var pageMethod: String
    }

    /// Decides `request` in a web view in `state` (which the caller advances with
    /// `WebViewState.advance(past:_:)`).
    public func decide(_ request: LoadRequest, in state: WebViewState, scratch: inout Scratch) -> Decision {
        if let message = request.message { return decide(message, scratch: &scratch) }
        let isNavigation = request.kind != .resource
        // A top-level navigation is its own main document (WebKit `ResourceLoadInfo`),
        // without its fragment (observed); the page it becomes keeps the fragment.
        let topURL = isNavigation ? request.url.withoutFragment : (request.top ?? state.top ?? request.url)
        let context = LoadContext(topURL: topURL, shownDocument: state.top, pageMethod: state.pageMethod)
        return evaluate(request, context, isFirstPage: request.kind == .page && state.pagesLoaded == 0, pagesLoaded: state.pagesLoaded, scratch: &scratch)
    }

    /// A script message: the message step alone (docs/semantics.md, "Messages"). No load
    /// happens, so no content rule, gate or cookie applies, and the page stays as it is.
    public func decide(_ message: ScriptMessage, scratch: inout Scratch) -> Decision {
        var domains = scratch.domains
        defer { scratch.domains = domains }
        let outcome = messages.decide(message) { host in domains.registrableDomain(of: host, suffixes) }
        var result = Decision(topURL: message.frameURL, verdict: outcome.admitted ? .allow : .block, finalURL: message.frameURL)
        result.why = outcome.why
        result.decidedBy = outcome.location.map { RuleOrigin(index: -1, id: outcome.bridge.map { messages.bridges[$0].name }, location: $0) }
        if let bridge = outcome.bridge, let origin = outcome.origin { result.bridge = BridgeAdmission(bridge: bridge, origin: origin) }
        return result
    }

    /// WebKit's `ResourceLoadInfo` for a load, as observed on a real WebKit (ci/webkit-conformance):
    /// - `frameURL` is the URL of the document the initiating frame shows *before* the load,
    ///   fragment included. For a navigation, that is the page being left — or, in a view
    ///   that has shown nothing yet (a trace's first page, a popup), the URL being loaded,
    ///   without its fragment; for an iframe's own document, the new frame's initial
    ///   `about:blank`, and its load-context is child-frame.
    /// - `request-method` is the method of the initiating document's load
    ///   (`initiatingDocumentLoader.request().httpMethod()`), not the subresource's: a fetch
    ///   POST from a page loaded by GET matches `"request-method": "get"`. A navigation has its
    ///   own method.
    private func contentLoad(for request: LoadRequest, _ context: LoadContext, domains: inout DomainCache) -> ContentLoad {
        let isNavigation = request.kind != .resource
        let frameURL: CanonicalURL
        let isMainFrame: Bool
        let method: String
        if isNavigation {
            (frameURL, isMainFrame, method) = (context.shownDocument ?? request.url.withoutFragment, true, request.method ?? "GET")
        } else if request.resourceType == .childDocument {
            (frameURL, isMainFrame, method) = (.aboutBlank, false, request.frame == nil ? context.pageMethod : "GET")
        } else if let frame = request.frame {
            (frameURL, isMainFrame, method) = (frame, false, "GET")
        } else {
            (frameURL, isMainFrame, method) = (context.topURL, true, context.pageMethod)
        }
        return ContentLoad(
            url: request.url, resourceType: request.resourceType, topURL: context.topURL, frameURL: frameURL,
            isMainFrame: isMainFrame, method: RequestMethod(rawValue: method.lowercased()),
            isThirdParty: isNavigation ? false : isThirdParty(request.url.host, top: context.topURL.host, domains: &domains))
    }

    /// A `window.open` is checked twice by WebKit (observed on a real WebKit): as a `popup`
    /// load of the opener, where only `block` counts (a `make-https` is logged but the new
    /// window loads the URL as given), then as the new window's own top-level navigation — a
    /// first-party `top-document` in a view that has shown nothing yet — where every action
    /// applies.
    private func popupNavigation(of request: LoadRequest) -> ContentLoad {
        ContentLoad(url: request.url, resourceType: .topDocument, topURL: request.url.withoutFragment, frameURL: request.url.withoutFragment,
                    isMainFrame: true, method: .get, isThirdParty: false)
    }

    /// Step 1 for one load: every list on its own (WebKit: ignore rules never cross lists).
    private func contentRules(_ load: ContentLoad, caches: inout [ContentRuleEngine.ConditionCache]) -> [ContentRuleEngine.ListResult] {
        lists.indices.map { lists[$0].evaluate(load, cache: &caches[$0]) }
    }

    private func evaluate(_ request: LoadRequest, _ context: LoadContext, isFirstPage: Bool, pagesLoaded: Int, scratch: inout Scratch) -> Decision {
        let isNavigation = request.kind != .resource
        var result = Decision(topURL: context.topURL, verdict: .allow, finalURL: request.url)

        // 0. Where the view may go (the app's delegate), then App-Bound Domains (WebKit).
        var admittedBy: Why?
        if !navigation.isEmpty {
            switch navigationStep(request, isFirstPage: isFirstPage, scratch: &scratch) {
            case .passes(let appBound):
                result.appBound = appBound
            case .admitted(let entry, let section, let appBound):
                admittedBy = .navigationAdmitted(entry: entry.described, section: section, at: entry.location)
                result.decidedBy = RuleOrigin(index: -1, id: nil, location: entry.location)
                result.admittedBy = entry.location
                result.appBound = appBound
            case .handedToSystem(let why, let location):
                result.isHandedToSystem = true
                result.why = why
                result.decidedBy = RuleOrigin(index: -1, id: nil, location: location)
                return result
            case .refused(let why, let location):
                result.verdict = .block
                result.why = why
                result.decidedBy = RuleOrigin(index: -1, id: nil, location: location)
                return result
            }
        }
        var decided = evaluateLoad(request, context, isNavigation: isNavigation, isFirstPage: isFirstPage, pagesLoaded: pagesLoaded, into: result, scratch: &scratch)
        // An admitted document that loads says which entry let it: that is its reason, unless
        // a later step decided something of its own.
        if let admittedBy, decided.verdict == .allow, !decided.isHandedToSystem {
            switch decided.why {
            // (An http document keeps the allowlist entry as its reason: both entries let it.)
            case .secureScheme, .noRuleMatches, .noSurvivingRule:
                decided.why = admittedBy
                decided.decidedBy = result.decidedBy
            default: break
            }
        }
        if request.resourceType == .popup, navigation.rules?.newWindows == .sameView, decided.verdict != .block {
            decided.replacesPage = true
        }
        return decided
    }

    /// Step 0 for one load: what kind of navigation it is, and how it started.
    private func navigationStep(_ request: LoadRequest, isFirstPage: Bool, scratch: inout Scratch) -> NavigationGate.Outcome {
        let newWindow = request.resourceType == .popup
        let mainFrame = request.kind != .resource || newWindow
        guard mainFrame || request.resourceType == .childDocument else { return .passes(appBound: nil) }
        let by = request.initiator ?? (isFirstPage ? .app : .link)
        // A scheme that is neither the web's, WebKit's own nor one the app serves is the scheme
        // gate's: handed to the system or refused, the delegate cancels it either way, before
        // WebKit's app-bound check.
        let scheme = request.url.scheme
        let delegateCancels = rules != nil && !["http", "https", "about", "data", "blob", "file", "javascript"].contains(scheme)
            && interceptionRule(for: request.url, method: request.method) == nil
        var domains = scratch.domains
        defer { scratch.domains = domains }
        return navigation.decide(request.url, mainFrame: mainFrame, newWindow: newWindow, by: by, handedOffByScheme: delegateCancels) { host in
            domains.registrableDomain(of: host, suffixes)
        }
    }

    /// Steps 1 to 4: content rules, the scheme gate, interception and cookies.
    private func evaluateLoad(_ request: LoadRequest, _ context: LoadContext, isNavigation: Bool, isFirstPage: Bool, pagesLoaded: Int, into start: Decision, scratch: inout Scratch) -> Decision {
        let load = contentLoad(for: request, context, domains: &scratch.domains)
        var result = start
        result.decidedBy = nil

        // 1. Content rules.
        result.content.lists = contentRules(load, caches: &scratch.conditions)
        if request.resourceType == .ping {
            // A hyperlink-auditing ping is checked twice (observed, ci/webkit-conformance): as
            // a `ping` on its URL as written, then as an `other` load on the URL it sends (no
            // fragment). Either check's actions apply — so an `ignore-previous-rules` typed
            // `ping` cancels a block in the first check only, and the second still blocks.
            // The URL it sends is the one the first check left: upgraded by its `make-https`
            // (observed: a ping to http://…#frag upgraded by a `#frag` rule is blocked by
            // `^https:` as `other`).
            var sentURL = request.url.withoutFragment
            if result.content.has(.makeHTTPS), let secure = Self.upgradedURL(sentURL) { sentURL = secure }
            let sent = ContentLoad(url: sentURL, resourceType: .other, topURL: load.topURL, frameURL: load.frameURL,
                                   isMainFrame: load.isMainFrame, method: load.method, isThirdParty: load.isThirdParty)
            result.content.second = contentRules(sent, caches: &scratch.conditions)
            result.content.combination = .ping
        }
        if request.resourceType == .popup {
            if result.content.has(.block) {
                result.content.combination = .popupBlocked
            } else {
                var fresh = [ContentRuleEngine.ConditionCache](repeating: .init(), count: lists.count)
                result.content.second = contentRules(popupNavigation(of: request), caches: &fresh)
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
        if let upgrade = result.content.first(.makeHTTPS), let secure = Self.upgradedURL(request.url) {
            result.finalURL = secure
            result.verdict = .upgrade
            result.decidedBy = upgrade
            upgradedBy = upgrade
            result.why = .upgradedByRule(upgrade, to: result.finalURL.requestString)
        }
        guard let rules else {
            if upgradedBy == nil { result.why = result.content.lists.allSatisfy(\.matchedNothing) && result.content.second.allSatisfy(\.matchedNothing) ? .noRuleMatches : .noSurvivingRule }
            return result
        }

        // 2. The scheme gate, on the URL the load continues with.
        let url = result.finalURL
        switch url.scheme {
        case "https", "wss":
            if upgradedBy == nil { result.why = .secureScheme(url.scheme) }
        case "http", "ws":
            guard let entry = allowlistEntry(for: url) else {
                result.verdict = .block
                result.decidedBy = nil
                result.why = .insecureNotAllowlisted(scheme: url.scheme, host: url.host)
                return result
            }
            if upgradedBy == nil {
                result.why = .allowlisted(host: url.host ?? "", at: entry.location)
                result.decidedBy = RuleOrigin(index: -1, id: nil, location: entry.location)
            }
        case "about", "data", "blob":
            result.why = .webKitScheme(url.scheme)
        default:
            if let handler = interceptionRule(for: url, method: request.method) {
                result.verdict = .intercept
                result.decidedBy = origin(of: handler)
                result.interception = handler
                result.why = .schemeHandler(origin(of: handler), scheme: url.scheme)
                return result
            }
            guard let allowed = schemeEntry(for: url) else {
                result.verdict = .block
                result.decidedBy = nil
                result.why = .schemeNotAllowed(scheme: url.scheme, entries: schemeMisses(for: url))
                return result
            }
            result.handedToSystem = allowed
            result.isHandedToSystem = true
            result.why = .handedToSystem(scheme: url.scheme, at: allowed.location)
            result.decidedBy = RuleOrigin(index: -1, id: nil, location: allowed.location)
            return result
        }

        // 3. http(s) interception.
        if let handler = interceptionRule(for: url, method: request.method) {
            result.verdict = .intercept
            result.decidedBy = origin(of: handler)
            result.interception = handler
            result.why = .intercepted(origin(of: handler))
            return result
        }

        // 4. Cookies that would be sent.
        if !blockCookies {
            result.cookies = rules.cookies.filter { cookie in
                Self.cookieIsSent(cookie, url: url, load: load, isNavigation: isNavigation, isFirstPage: isFirstPage, pagesLoaded: pagesLoaded)
            }.map(\.name)
        }
        return result
    }

    /// What `make-https` makes of a URL: http and ws on their default port only (WebKit
    /// `applyResultsToRequest`); nil for any other.
    package static func upgradedURL(_ url: CanonicalURL) -> CanonicalURL? {
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

    // MARK: The policy's entries

    /// The http-allowlist entry that admits a plain http or ws URL's host.
    public func allowlistEntry(for url: CanonicalURL) -> Manifest.HTTPAllowlistEntry? {
        rules?.httpAllowlist.first { $0.host.matches(url.host ?? "") }
    }

    /// The scheme-allowlist entry that hands `url` to the system: its scheme, and its host and
    /// path when the entry names them.
    public func schemeEntry(for url: CanonicalURL) -> Manifest.SchemeAllowlistEntry? {
        rules?.schemeAllowlist.first { entry in
            guard entry.scheme == url.scheme else { return false }
            if let hosts = entry.hosts, !hosts.contains(where: { $0.lowercased() == (url.host ?? "").lowercased() }) { return false }
            if let paths = entry.paths, !paths.contains(where: { url.path.hasPrefix($0) }) { return false }
            return true
        }
    }

    /// Each entry for the URL's scheme with the limit that leaves the URL out (the same tests
    /// as `schemeEntry(for:)`, which admits none of them).
    private func schemeMisses(for url: CanonicalURL) -> [SchemeEntryMiss] {
        (rules?.schemeAllowlist ?? []).compactMap { entry in
            guard entry.scheme == url.scheme else { return nil }
            let host = url.host ?? ""
            if let hosts = entry.hosts, !hosts.contains(where: { $0.lowercased() == host.lowercased() }) {
                return SchemeEntryMiss(location: entry.location, limit: .hosts(hosts, host: host))
            }
            if let paths = entry.paths, !paths.contains(where: { url.path.hasPrefix($0) }) {
                return SchemeEntryMiss(location: entry.location, limit: .paths(paths, path: url.path))
            }
            return nil
        }
    }

    /// The first interception rule that serves `url` with `method` (nil: GET).
    public func interceptionRule(for url: CanonicalURL, method: String?) -> Manifest.Interception? {
        rules?.interception.first { rule in
            guard rule.scheme == url.scheme else { return false }
            if let hosts = rule.hosts, !hosts.contains(where: { $0.matches(url.host ?? "") }) { return false }
            if let paths = rule.paths, !paths.contains(where: { url.path.hasPrefix($0) }) { return false }
            if let methods = rule.methods, !methods.contains(method ?? "GET") { return false }
            return true
        }
    }

    /// RFC 6265 domain and path matching, `Secure`, SameSite for cross-site loads, and how the
    /// app delivers the cookie (seed 001): the cookie store from the start; a `Cookie` header on
    /// the first top-level request only; `document.cookie` from a script that runs once the
    /// first document has loaded, so not on that document's own request.
    private static func cookieIsSent(_ cookie: Manifest.Cookie, url: CanonicalURL, load: ContentLoad, isNavigation: Bool, isFirstPage: Bool, pagesLoaded: Int) -> Bool {
        cookieOutcome(cookie, url: url, load: load, isNavigation: isNavigation, isFirstPage: isFirstPage, pagesLoaded: pagesLoaded) == .sent
    }

    /// The first of the conditions above that fails for `cookie`, or `.sent`: the one place
    /// they are written, for the verdict and for its explanation alike.
    private static func cookieOutcome(_ cookie: Manifest.Cookie, url: CanonicalURL, load: ContentLoad, isNavigation: Bool, isFirstPage: Bool, pagesLoaded: Int) -> CookieOutcome {
        guard let host = url.host, url.scheme == "https" || url.scheme == "http" || url.scheme == "wss" || url.scheme == "ws" else { return .notHTTP(scheme: url.scheme) }
        let domain = cookie.domain.lowercased().drop { $0 == "." }
        let domainMatches = cookie.hostOnly ? host == domain : (host == domain || host.hasSuffix("." + domain))
        guard domainMatches else { return .domain(host: host) }
        let path = cookie.path
        guard url.path == path || (url.path.hasPrefix(path) && (path.hasSuffix("/") || url.path.dropFirst(path.count).hasPrefix("/"))) else { return .path(url.path) }
        if cookie.secure, url.scheme != "https" && url.scheme != "wss" { return .secure(scheme: url.scheme) }
        if let maxAge = cookie.maxAge, maxAge <= 0 { return .expired }
        if load.isThirdParty {
            switch cookie.sameSite {
            case .strict: return .sameSite(.strict)
            case .lax: if !(isNavigation && (load.method ?? .get) == .get) { return .sameSite(.lax) }
            case .none?, nil: break
            }
        }
        switch cookie.via {
        case .cookieStore: return .sent
        case .header: return isFirstPage ? .sent : .delivery(.header)
        case .documentCookie: return pagesLoaded > 0 ? .sent : .delivery(.documentCookie)
        }
    }

    /// Each of the policy's cookies with what happened to it on `request` (decided as
    /// `decision`, in `state`): for explanations, which name the one condition that failed.
    public func cookieOutcomes(for request: LoadRequest, in state: WebViewState, decision: Decision) -> [(cookie: Manifest.Cookie, outcome: CookieOutcome)] {
        guard let rules else { return [] }
        let isNavigation = request.kind != .resource
        let topURL = isNavigation ? request.url.withoutFragment : (request.top ?? state.top ?? request.url)
        var domains = DomainCache()
        let load = contentLoad(for: request, LoadContext(topURL: topURL, shownDocument: state.top, pageMethod: state.pageMethod), domains: &domains)
        return rules.cookies.map { cookie in
            let outcome: CookieOutcome
            // Any hand-off, the scheme gate's or navigation's: the view loads nothing.
            if decision.isHandedToSystem {
                outcome = .handedOff
            } else if decision.verdict == .block || decision.verdict == .intercept {
                outcome = .notReached(decision.verdict)
            } else if decision.content.has(.blockCookies) {
                outcome = .blockCookies
            } else {
                outcome = Self.cookieOutcome(cookie, url: decision.finalURL, load: load, isNavigation: isNavigation,
                                             isFirstPage: request.kind == .page && state.pagesLoaded == 0, pagesLoaded: state.pagesLoaded)
            }
            return (cookie, outcome)
        }
    }

    private func origin(of rule: Manifest.Interception) -> RuleOrigin {
        RuleOrigin(index: -1, id: rule.id, location: rule.location)
    }
}

/// Registrable domains by host: a trace revisits the same hosts, and consecutive requests
/// of a page share the top's.
struct DomainCache: Sendable {
    private var last: (host: String, domain: String)?
    private var all: [String: String] = [:]

    mutating func registrableDomain(of host: String, _ suffixes: PublicSuffixList) -> String {
        if let last, last.host == host { return last.domain }
        let domain = all[host] ?? suffixes.registrableDomain(of: host)
        // Bounded: an app's pooled scratch lives as long as the app, and visits hosts without end.
        if all.count >= 8_192 { all.removeAll(keepingCapacity: true) }
        all[host] = domain
        last = (host, domain)
        return domain
    }
}
