import Foundation

/// Step 1 (docs/semantics.md): WebKit's content rules, every list on its own (WebKit: ignore
/// rules never cross lists), on the load as WebKit describes it (`ResourceLoadInfo`). `block`
/// wins over `make-https` (WebKit test `StrictPrefixSeparatedMachines3`).
struct ContentRulesStep: Sendable {
    /// The content-rule lists, in the order the web view adds them.
    let lists: [ContentRuleEngine]
    let suffixes: PublicSuffixList
    /// `lists` again, without their reference counts: a counted simulation's threads call
    /// the same lists for every request, and retaining one for each call had both cores
    /// change one count in one cache line. `lists` keeps them alive.
    private let unretainedLists: [Unmanaged<ContentRuleEngine>]

    init(lists: [ContentRuleEngine], suffixes: PublicSuffixList) {
        self.lists = lists
        self.suffixes = suffixes
        unretainedLists = lists.map { Unmanaged.passUnretained($0) }
    }

    /// Where a load happens.
    struct Context {
        /// The main document's URL for this load.
        var topURL: CanonicalURL
        /// The document the main frame shows before this load, if any.
        var shownDocument: CanonicalURL?
        /// The method the current page was loaded with.
        var pageMethod: String

        /// A top-level navigation is its own main document (WebKit `ResourceLoadInfo`), without
        /// its fragment (observed); the page it becomes keeps the fragment.
        init(_ request: LoadRequest, in state: WebViewState) {
            topURL = request.kind != .resource ? request.url.withoutFragment : (request.top ?? state.top ?? request.url)
            shownDocument = state.top
            pageMethod = state.pageMethod
        }
    }

    enum Outcome {
        /// A `block` survives.
        case blocked(RuleOrigin)
        /// A `make-https` survives and the URL can be upgraded.
        case upgraded(RuleOrigin, to: CanonicalURL)
        case passes
    }

    /// Runs the lists on `load` into `content` (the ping's and popup's second checks included).
    func decide(_ request: LoadRequest, _ load: ContentLoad, into content: inout ContentMatches, caches: inout [ContentRuleEngine.ConditionCache]) -> Outcome {
        content.lists = evaluate(load, caches: &caches)
        if request.resourceType == .ping {
            // A hyperlink-auditing ping is checked twice (observed, ci/webkit-conformance): as
            // a `ping` on its URL as written, then as an `other` load on the URL it sends (no
            // fragment). Either check's actions apply — so an `ignore-previous-rules` typed
            // `ping` cancels a block in the first check only, and the second still blocks.
            // The URL it sends is the one the first check left: upgraded by its `make-https`
            // (observed: a ping to http://…#frag upgraded by a `#frag` rule is blocked by
            // `^https:` as `other`).
            var sentURL = request.url.withoutFragment
            if content.has(.makeHTTPS), let secure = Self.upgradedURL(sentURL) { sentURL = secure }
            let sent = ContentLoad(url: sentURL, resourceType: .other, topURL: load.topURL, frameURL: load.frameURL,
                                   isMainFrame: load.isMainFrame, method: load.method, isThirdParty: load.isThirdParty)
            content.second = evaluate(sent, caches: &caches)
            content.combination = .ping
        }
        if request.resourceType == .popup {
            if content.has(.block) {
                content.combination = .popupBlocked
            } else {
                var fresh = [ContentRuleEngine.ConditionCache](repeating: .init(), count: lists.count)
                content.second = evaluate(Self.popupNavigation(of: request), caches: &fresh)
                content.combination = .popupNavigated
            }
        }
        switch Self.verdict(blocks: content.has(.block), upgrades: content.has(.makeHTTPS), upgradable: Self.isUpgradable(request.url)) {
        case .block: return content.first(.block).map { .blocked($0) } ?? .passes
        case .upgrade: return content.first(.makeHTTPS).map { .upgraded($0, to: Self.upgradedURL(request.url)!) } ?? .passes
        default: return .passes
        }
    }

    /// What the surviving actions make of a load: `block` wins over `make-https`, which
    /// upgrades only a URL that can be upgraded. The one place both the full decision and
    /// the counted one take their verdict from.
    static func verdict(blocks: Bool, upgrades: Bool, upgradable: Bool) -> Verdict {
        if blocks { return .block }
        // `make-https`: http and ws on their default port only (WebKit `applyResultsToRequest`).
        if upgrades, upgradable { return .upgrade }
        return .allow
    }

    /// The page a counted subresource load belongs to: what `Context` and `load(for:)` work
    /// out of a web view's state, once for the page's loads — its top's registrable domain too,
    /// which decides whether each of them is third-party.
    struct Page: Sendable {
        let topURL: CanonicalURL
        let method: RequestMethod?
        /// The top's registrable domain's bytes; nil for a top without a host.
        let topDomain: [UInt8]?
        /// What a load of the main frame and one of a child document (whose frame is still
        /// its initial `about:blank`) match `if-top-url` and `if-frame-url` against.
        let mainFrame: ContentLoad.Frames
        let childFrame: ContentLoad.Frames
        /// The loads are an iframe's (a trace line's `frame=`): not the main frame's, and
        /// made by a document loaded by GET (`load(for:)`); `mainFrame` holds that frame.
        let inFrame: Bool

        init(topURL: CanonicalURL, method: RequestMethod?, topDomain: String?, frame: CanonicalURL? = nil) {
            self.init(topURL: topURL, method: method, topDomain: topDomain.map { Array($0.utf8) }, frame: frame)
        }

        private init(topURL: CanonicalURL, method: RequestMethod?, topDomain: [UInt8]?, frame: CanonicalURL?) {
            self.topURL = topURL
            self.method = frame == nil ? method : .get
            self.topDomain = topDomain
            let topString = topURL.description
            mainFrame = ContentLoad.Frames(top: topString, frame: frame?.description ?? topString)
            childFrame = ContentLoad.Frames(top: topString, frame: ContentRulesStep.aboutBlankString)
            inFrame = frame != nil
        }

        /// The loads of an iframe on this page: its top's registrable domain kept, not looked
        /// up in the Public Suffix List again for every frame.
        func framing(_ frame: CanonicalURL) -> Page {
            Page(topURL: topURL, method: method, topDomain: topDomain, frame: frame)
        }
    }

    /// The page a subresource load of the main frame (or, with `frame`, of that iframe) sees:
    /// what `Context` and `load(for:)` work out of `top`, once for every load that shares it.
    func page(top: CanonicalURL, pageMethod: String, frame: CanonicalURL? = nil) -> Page {
        Page(topURL: top, method: pageMethod == "GET" ? .get : RequestMethod(rawValue: pageMethod.lowercased()),
             topDomain: top.host.map { suffixes.registrableDomain(of: $0) }, frame: frame)
    }

    /// The verdict alone of a subresource load of the main frame or a child document, checked
    /// once (not a ping or a popup, which are checked twice): what `load(for:)` and
    /// `decide` work out for such a load, without a decision to hold it. `url`: the request
    /// URL's bytes without its fragment; `host`: its host's.
    func countedVerdict(url: UnsafeBufferPointer<UInt8>, host: UnsafeBufferPointer<UInt8>, upgradable: Bool, resourceType: ResourceType, page: Page,
                        caches: inout [ContentRuleEngine.ConditionCache]) -> Verdict {
        let isChild = resourceType == .childDocument
        let facts = ContentLoad.Facts(resourceType: resourceType, isThirdParty: Self.isThirdParty(host, topDomain: page.topDomain),
                                      isMainFrame: !isChild && !page.inFrame, method: page.method)
        var kinds: UInt16 = 0
        for index in unretainedLists.indices {
            kinds |= unretainedLists[index]._withUnsafeGuaranteedRef {
                $0.summary(url: url, facts, isChild ? page.childFrame : page.mainFrame, cache: &caches[index]).kinds
            }
        }
        let summary = ContentRuleEngine.ActionSummary(kinds: kinds)
        return Self.verdict(blocks: summary.has(.block), upgrades: summary.has(.makeHTTPS), upgradable: upgradable)
    }

    static let aboutBlankString = CanonicalURL.aboutBlank.description

    private func evaluate(_ load: ContentLoad, caches: inout [ContentRuleEngine.ConditionCache]) -> [ContentRuleEngine.ListResult] {
        lists.indices.map { lists[$0].evaluate(load, cache: &caches[$0]) }
    }

    /// What `make-https` makes of a URL: http and ws on their default port only (WebKit
    /// `applyResultsToRequest`); nil for any other.
    static func upgradedURL(_ url: CanonicalURL) -> CanonicalURL? {
        guard isUpgradable(url) else { return nil }
        return url.upgraded(to: url.scheme == "http" ? "https" : "wss")
    }

    static func isUpgradable(_ url: CanonicalURL) -> Bool {
        (url.scheme == "http" || url.scheme == "ws") && url.port == nil
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
    func load(for request: LoadRequest, _ context: Context, domains: inout DomainCache) -> ContentLoad {
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
            isMainFrame: isMainFrame, method: method == "GET" ? .get : RequestMethod(rawValue: method.lowercased()),
            isThirdParty: isNavigation ? false : isThirdParty(request.url.host, top: context.topURL.host, domains: &domains))
    }

    /// A `window.open` is checked twice by WebKit (observed on a real WebKit): as a `popup`
    /// load of the opener, where only `block` counts (a `make-https` is logged but the new
    /// window loads the URL as given), then as the new window's own top-level navigation — a
    /// first-party `top-document` in a view that has shown nothing yet — where every action
    /// applies.
    private static func popupNavigation(of request: LoadRequest) -> ContentLoad {
        ContentLoad(url: request.url, resourceType: .topDocument, topURL: request.url.withoutFragment, frameURL: request.url.withoutFragment,
                    isMainFrame: true, method: .get, isThirdParty: false)
    }

    /// WebKit `isThirdParty` (see `PublicSuffixList.isThirdParty`), with the top's registrable
    /// domain remembered.
    private func isThirdParty(_ host: String?, top: String?, domains: inout DomainCache) -> Bool {
        var resource = host ?? ""
        return resource.withUTF8 { isThirdParty($0, top: top, domains: &domains) }
    }

    /// `isThirdParty` of a host given as bytes.
    private func isThirdParty(_ bytes: UnsafeBufferPointer<UInt8>, top: String?, domains: inout DomainCache) -> Bool {
        guard let top else { return !bytes.isEmpty }
        var registrable = domains.registrableDomain(of: top, suffixes)
        return registrable.withUTF8 { Self.isThirdParty(bytes, registrable: $0) }
    }

    /// Whether a host given as bytes is outside `topDomain`, the registrable domain of the
    /// page's top as bytes (nil: a top without a host).
    private static func isThirdParty(_ bytes: UnsafeBufferPointer<UInt8>, topDomain: [UInt8]?) -> Bool {
        guard let topDomain else { return !bytes.isEmpty }
        return topDomain.withUnsafeBufferPointer { isThirdParty(bytes, registrable: $0) }
    }

    private static func isThirdParty(_ bytes: UnsafeBufferPointer<UInt8>, registrable suffix: UnsafeBufferPointer<UInt8>) -> Bool {
        if suffix.isEmpty { return !bytes.isEmpty }
        // The host is the domain, or ends with "." + domain.
        guard bytes.count >= suffix.count, let start = bytes.baseAddress, let other = suffix.baseAddress,
              memcmp(start + (bytes.count - suffix.count), other, suffix.count) == 0 else { return true }
        return bytes.count > suffix.count && bytes[bytes.count - suffix.count - 1] != UInt8(ascii: ".")
    }
}

extension Decision {
    /// Step 1's outcome on the decision; true when it ends the pipeline (a block).
    mutating func take(_ outcome: ContentRulesStep.Outcome) -> Bool {
        switch outcome {
        case .blocked(let block):
            (verdict, decidedBy, why) = (.block, block, .blockedByRule(block))
            record.decide(at: .contentRules)
            return true
        case .upgraded(let upgrade, let secure):
            (finalURL, verdict, decidedBy, why) = (secure, .upgrade, upgrade, .upgradedByRule(upgrade, to: secure.requestString))
            record.decide(at: .contentRules)
            return false
        case .passes:
            return false
        }
    }

    /// For a bare list, where WebKit's rules are all there is: whether any rule matched.
    mutating func explainBareList() {
        guard record.decidedAt == nil else { return }
        why = content.lists.allSatisfy(\.matchedNothing) && content.second.allSatisfy(\.matchedNothing) ? .noRuleMatches : .noSurvivingRule
    }
}
