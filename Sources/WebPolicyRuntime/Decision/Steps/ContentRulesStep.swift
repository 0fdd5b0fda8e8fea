import Foundation

/// Step 1 (docs/semantics.md): WebKit's content rules, every list on its own (WebKit: ignore
/// rules never cross lists), on the load as WebKit describes it (`ResourceLoadInfo`). `block`
/// wins over `make-https` (WebKit test `StrictPrefixSeparatedMachines3`).
struct ContentRulesStep: Sendable {
    /// The content-rule lists, in the order the web view adds them.
    let lists: [ContentRuleEngine]
    let suffixes: PublicSuffixList

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
        if let block = content.first(.block) { return .blocked(block) }
        // `make-https`: http and ws on their default port only (WebKit `applyResultsToRequest`).
        if let upgrade = content.first(.makeHTTPS), let secure = Self.upgradedURL(request.url) { return .upgraded(upgrade, to: secure) }
        return .passes
    }

    private func evaluate(_ load: ContentLoad, caches: inout [ContentRuleEngine.ConditionCache]) -> [ContentRuleEngine.ListResult] {
        lists.indices.map { lists[$0].evaluate(load, cache: &caches[$0]) }
    }

    /// What `make-https` makes of a URL: http and ws on their default port only (WebKit
    /// `applyResultsToRequest`); nil for any other.
    static func upgradedURL(_ url: CanonicalURL) -> CanonicalURL? {
        guard url.scheme == "http" || url.scheme == "ws", url.port == nil else { return nil }
        return url.upgraded(to: url.scheme == "http" ? "https" : "wss")
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
        let resource = host ?? ""
        guard let top else { return !resource.isEmpty }
        let domain = domains.registrableDomain(of: top, suffixes)
        if domain.isEmpty { return !resource.isEmpty }
        if resource == domain { return false }
        // `resource` ends with "." + domain, compared as bytes without building that string.
        var (host, registrable) = (resource, domain)
        return host.withUTF8 { bytes in
            registrable.withUTF8 { suffix in
                guard bytes.count > suffix.count, bytes[bytes.count - suffix.count - 1] == UInt8(ascii: ".") else { return true }
                guard let start = bytes.baseAddress, let other = suffix.baseAddress else { return true }
                return memcmp(start + (bytes.count - suffix.count), other, suffix.count) != 0
            }
        }
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
