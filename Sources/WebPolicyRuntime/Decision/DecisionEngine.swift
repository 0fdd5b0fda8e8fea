import Foundation

/// The verdict pipeline (docs/semantics.md), the one place a verdict is computed. A load runs
/// the steps in order — navigation and App-Bound Domains for a navigation, content rules, then
/// for a policy the scheme gate, interception and cookies — each in a file of its own
/// (`Steps/`), and stops at the first that refuses, hands off or serves it; the decision
/// records which steps ran and which decided (`PipelineRecord`). A script message has its own
/// step. `webpolicy simulate` replays traces through it; `RuntimePolicy` answers an app's
/// questions with it. Immutable once built; each caller keeps its own `Scratch`.
public final class DecisionEngine: Sendable {
    /// The allowlists, interception and cookies; nil for a bare content-blocker list, where
    /// only what WebKit itself does is decided.
    public let rules: Manifest?
    public let suffixes: PublicSuffixList
    /// `rules != nil`, kept apart: testing the optional copies the whole manifest, on every request.
    private let hasPolicy: Bool
    let navigation: NavigationStep
    let appBound: AppBoundStep
    let contentRules: ContentRulesStep
    let schemeGate: SchemeGateStep
    let interception: InterceptionStep
    let cookies: CookiesStep
    /// Script messages: `bridges:`, `webview.javascript` and App-Bound Domains.
    let messages: MessageGate
    /// Bindings of `runtime-hosts` roles.
    let binding: BindingStep
    /// Camera, microphone and motion-sensor requests: `webview.permissions`.
    let permissions: PermissionStep

    /// The content-rule lists, in the order the web view adds them.
    public var lists: [ContentRuleEngine] { contentRules.lists }

    public init(lists: [ContentRuleEngine], rules: Manifest?, publicSuffixList: PublicSuffixList) {
        self.rules = rules
        hasPolicy = rules != nil
        suffixes = publicSuffixList
        navigation = NavigationStep(rules: rules?.navigation)
        appBound = AppBoundStep(domains: rules?.appBoundDomains, suffixes: publicSuffixList)
        contentRules = ContentRulesStep(lists: lists, suffixes: publicSuffixList)
        interception = InterceptionStep(rules: rules?.interception ?? [])
        schemeGate = SchemeGateStep(httpAllowlist: rules?.httpAllowlist ?? [], schemeAllowlist: rules?.schemeAllowlist ?? [], interception: interception,
                                    roles: rules?.runtimeHosts ?? [])
        cookies = CookiesStep(cookies: rules?.cookies ?? [])
        messages = MessageGate(bridges: rules?.bridges ?? [], webView: rules?.webView, appBound: rules?.appBoundDomains, suffixes: publicSuffixList)
        binding = BindingStep(roles: rules?.runtimeHosts ?? [])
        permissions = PermissionStep(rules: rules?.webView?.permissions ?? PermissionRules())
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

    /// Decides a load or a message in a web view in `state` (which the caller advances with
    /// `WebViewState.advance(past:_:)`).
    public func decide(_ request: EngineRequest, in state: WebViewState, scratch: inout Scratch) -> Decision {
        switch request {
        case .load(let load): return decide(load, in: state, scratch: &scratch)
        case .message(let message): return decide(message, bindings: state.bindings, scratch: &scratch)
        case .bind(let bind): return decide(bind)
        case .permission(let permission): return decide(permission, bindings: state.bindings)
        }
    }

    /// A permission request: the permission step alone (docs/semantics.md, "Permissions").
    /// `allow`: WebKit asks the user (`WKPermissionDecision.prompt`); `block`: it refuses
    /// without asking (`.deny`).
    public func decide(_ request: PermissionRequest, bindings: HostBindings = HostBindings()) -> Decision {
        let outcome = permissions.decide(request, bindings: bindings)
        var result = Decision(topURL: request.frameURL, verdict: outcome.asked ? .allow : .block, finalURL: request.frameURL)
        result.record.decide(at: .permission)
        result.why = outcome.why
        result.decidedBy = outcome.location.map { RuleOrigin(index: -1, id: nil, location: $0) }
        return result
    }

    /// A binding of a `runtime-hosts` role: the binding step alone. The caller keeps what it
    /// binds (`WebViewState.advance`, `RuntimePolicy.bind`).
    public func decide(_ request: BindRequest) -> Decision {
        var result = Decision(topURL: request.url, verdict: .allow, finalURL: request.url)
        result.record.decide(at: .binding)
        switch binding.decide(request) {
        case .bound(let bound, let role):
            result.why = .roleBound(role.name, origin: bound.origin, at: role.location)
            result.binding = bound
            result.decidedBy = RuleOrigin(index: -1, id: role.reference, location: role.location)
        case .refused(let problem, let role):
            let origin = request.url.host.map { request.url.scheme + "://" + $0 + (request.url.port.map { ":\($0)" } ?? "") } ?? request.url.description
            result.verdict = .block
            result.why = .roleBindingRefused(request.role, origin: origin, problem: problem, at: role?.location)
            result.decidedBy = role.map { RuleOrigin(index: -1, id: $0.reference, location: $0.location) }
        }
        return result
    }

    /// A script message: the message step alone (docs/semantics.md, "Messages"). No load
    /// happens, so no content rule, gate or cookie applies, and the page stays as it is.
    /// `bindings`: the roles bound now, for bridges whose origins name one.
    public func decide(_ message: ScriptMessage, bindings: HostBindings = HostBindings(), scratch: inout Scratch) -> Decision {
        var domains = scratch.domains
        defer { scratch.domains = domains }
        let outcome = messages.decide(message, bindings: bindings) { host in domains.registrableDomain(of: host, suffixes) }
        var result = Decision(topURL: message.frameURL, verdict: outcome.admitted ? .allow : .block, finalURL: message.frameURL)
        result.record.decide(at: .message)
        result.why = outcome.why
        result.decidedBy = outcome.location.map { RuleOrigin(index: -1, id: outcome.bridge.map { messages.bridges[$0].name }, location: $0) }
        if let bridge = outcome.bridge, let origin = outcome.origin { result.bridge = BridgeAdmission(bridge: bridge, origin: origin) }
        return result
    }

    /// Decides the load `request` in a web view in `state`.
    public func decide(_ request: LoadRequest, in state: WebViewState, scratch: inout Scratch) -> Decision {
        let context = ContentRulesStep.Context(request, in: state)
        var result = Decision(topURL: context.topURL, verdict: .allow, finalURL: request.url)

        // 0. Where the view may go: the app's delegate, then WebKit's App-Bound Domains.
        var admission: (why: Why, origin: RuleOrigin)?
        if hasPolicy, let target = NavigationStep.Target(request, isFirstPage: request.kind == .page && state.pagesLoaded == 0) {
            if navigation.isActive {
                result.record.run(.navigation)
                switch navigation.decide(request.url, target, bindings: state.bindings) {
                case .passes:
                    break
                case .admitted(let location, let section, let described):
                    admission = (.navigationAdmitted(entry: described, section: section, at: location), RuleOrigin(index: -1, id: nil, location: location))
                    result.admittedBy = location
                case .handedToSystem(let why, let location):
                    return result.ended(at: .navigation, handedOff: true, why: why, by: location)
                case .refused(let why, let location):
                    return result.ended(at: .navigation, handedOff: false, why: why, by: location)
                }
            }
            // WebKit checks a main-frame navigation the delegate did not cancel; the delegate
            // cancels one the scheme gate hands to the system or refuses.
            if target.mainFrame, appBound.isActive, !schemeGate.delegateCancels(request.url, method: request.method, bindings: state.bindings) {
                var domains = scratch.domains
                defer { scratch.domains = domains }
                switch appBound.decide(request.url, domain: { domains.registrableDomain(of: $0, suffixes) }) {
                case nil:
                    break
                case .checked(let check)?:
                    result.record.run(.appBound)
                    result.appBound = check
                case .refused(let why, let location)?:
                    return result.ended(at: .appBound, handedOff: false, why: why, by: location)
                }
            }
        }

        loadSteps(request, context, state: state, admission: admission, into: &result, scratch: &scratch)
        // A new window that loads in the same view becomes its page, whatever loads it.
        if navigation.replacesPage(request), result.verdict != .block { result.replacesPage = true }
        // Moved out, not copied: a plain `return result` copied the decision (each of its
        // references retained) and then destroyed the original, on every request.
        return consume result
    }

    /// Steps 1 to 4 for a load the navigation steps let through: content rules, the scheme
    /// gate, interception and cookies. `admission`: the `navigation` entry that admitted the
    /// document, which speaks for it when no later step does.
    private func loadSteps(_ request: LoadRequest, _ context: ContentRulesStep.Context, state: WebViewState, admission: (why: Why, origin: RuleOrigin)?,
                           into result: inout Decision, scratch: inout Scratch) {
        // 1. Content rules.
        let load = contentRules.load(for: request, context, domains: &scratch.domains)
        result.record.run(.contentRules)
        if result.take(contentRules.decide(request, load, into: &result.content, caches: &scratch.conditions)) { return }
        guard hasPolicy else {
            result.explainBareList()
            return
        }
        // 2. The scheme gate, on the URL the load continues with.
        let url = result.finalURL
        result.record.run(.schemeGate)
        if result.take(schemeGate.decide(url, method: request.method, bindings: state.bindings), on: url, admission: admission) { return }
        // 3. http(s) interception.
        result.record.run(.interception)
        if result.take(interception: interception.rule(for: url, method: request.method, bindings: state.bindings)) { return }
        // 4. Cookies that would be sent.
        result.record.run(.cookies)
        if !result.content.has(.blockCookies) {
            result.cookies = cookies.sent(to: url, load, CookiesStep.Moment(request, in: state))
        }
    }

    // MARK: Counted verdicts

    /// The page of a web view in `state`, as counted verdicts need it; nil when they do not
    /// apply: a policy (its steps after the content rules decide too) or no page shown yet.
    public func countedPage(for state: WebViewState) -> CountedPage? {
        guard countsVerdicts, let top = state.top else { return nil }
        return CountedPage(page: contentRules.page(top: top, pageMethod: state.pageMethod))
    }

    /// The page a load that names its own (`top=`) or its frame (`frame=`, on the view's page
    /// `top` when the line names no top) sees, for `countedVerdict`: as `load(for:)` works it
    /// out for such a load. Nil when verdicts are not counted.
    public func countedPage(top: CanonicalURL, frame: CanonicalURL?, pageMethod: String) -> CountedPage? {
        guard countsVerdicts else { return nil }
        return CountedPage(page: contentRules.page(top: top, pageMethod: pageMethod, frame: frame))
    }

    /// `page`'s iframe at `frame`, for `countedVerdict`: what `countedPage(top:frame:pageMethod:)`
    /// gives for the page's top, without working the top out again.
    public func countedPage(framing page: CountedPage, frame: CanonicalURL) -> CountedPage {
        CountedPage(page: page.page.framing(frame))
    }

    /// Whether verdicts can be counted alone (`countedVerdict`): over bare lists, where the
    /// content rules are all there is.
    public var countsVerdicts: Bool { !hasPolicy }

    /// A view's page for `countedVerdict`, worked out once for the loads it makes. A class:
    /// a simulation holds it for each of the page's loads, and a struct of its strings and
    /// arrays was copied — a reference count changed for each — on every one.
    public final class CountedPage: Sendable {
        let page: ContentRulesStep.Page

        init(page: ContentRulesStep.Page) { self.page = page }
    }

    /// The verdict alone of `request` on `page`, for a simulation that counts verdicts (a
    /// summary): the one `decide` gives it, from the same content-rule step, without a
    /// decision to hold the rules that matched. Nil for a load that needs the whole pipeline:
    /// a navigation, a ping or a popup (each checked twice), a load that names its own top or
    /// frame. A subresource leaves the view's state as it is.
    public func countedVerdict(_ request: LoadRequest, on page: CountedPage, scratch: inout Scratch) -> Verdict? {
        guard request.kind == .resource, request.top == nil, request.frame == nil else { return nil }
        let url = request.url
        var requestString = url.requestString
        var host = url.host ?? ""
        return requestString.withUTF8 { bytes in
            host.withUTF8 { host in
                countedVerdict(url: bytes, host: host, isUpgradable: ContentRulesStep.isUpgradable(url), resourceType: request.resourceType, on: page, scratch: &scratch)
            }
        }
    }

    /// `countedVerdict` of a subresource load of the page's main frame given as bytes: `url`,
    /// the canonical URL up to its fragment; `host`, its host; `isUpgradable`, whether it is
    /// http or ws on the default port. Nil for a type that is checked twice.
    package func countedVerdict(url: UnsafeBufferPointer<UInt8>, host: UnsafeBufferPointer<UInt8>, isUpgradable: Bool, resourceType: ResourceType,
                               on page: CountedPage, scratch: inout Scratch) -> Verdict? {
        guard Self.countsVerdict(of: resourceType) else { return nil }
        return contentRules.countedVerdict(url: url, host: host, upgradable: isUpgradable, resourceType: resourceType, page: page.page,
                                           caches: &scratch.conditions)
    }

    /// Whether a subresource of the type is checked once, so that `countedVerdict` answers for
    /// it: a ping and a popup are checked twice (`ContentRulesStep.decide`).
    public static func countsVerdict(of type: ResourceType) -> Bool {
        type != .ping && type != .popup
    }

    /// What `make-https` makes of a URL: http and ws on their default port only (WebKit
    /// `applyResultsToRequest`); nil for any other.
    package static func upgradedURL(_ url: CanonicalURL) -> CanonicalURL? { ContentRulesStep.upgradedURL(url) }

    // MARK: Questions the app asks, answered by the steps that decide loads

    /// The http-allowlist entry that admits a plain http or ws URL's host, with the roles
    /// bound as `bindings`.
    public func allowlistEntry(for url: CanonicalURL, bindings: HostBindings = HostBindings()) -> Manifest.HTTPAllowlistEntry? {
        schemeGate.allowlistEntry(for: url, bindings: bindings)
    }

    /// The scheme-allowlist entry that hands `url` to the system.
    public func schemeEntry(for url: CanonicalURL) -> Manifest.SchemeAllowlistEntry? { schemeGate.schemeEntry(for: url) }

    /// The first interception rule that serves `url` with `method` (nil: GET).
    public func interceptionRule(for url: CanonicalURL, method: String?, bindings: HostBindings = HostBindings()) -> Manifest.Interception? {
        interception.rule(for: url, method: method, bindings: bindings)
    }

    /// Whether the scheme gate lets an http(s) or ws(s) URL through (the seed delegate's
    /// `shouldAllowHttpRequest`); false for other schemes.
    public func allowsWebRequest(_ url: CanonicalURL, bindings: HostBindings = HostBindings()) -> Bool { schemeGate.allowsWebRequest(url, bindings: bindings) }

    /// Each of the policy's cookies with what happened to it on `request` (decided as
    /// `decision`, in `state`): for explanations, which name the one condition that failed —
    /// or the step, from the decision's record, that ended the load before cookies.
    public func cookieOutcomes(for request: LoadRequest, in state: WebViewState, decision: Decision) -> [(cookie: Manifest.Cookie, outcome: CookieOutcome)] {
        var domains = DomainCache()
        let load = contentRules.load(for: request, ContentRulesStep.Context(request, in: state), domains: &domains)
        return cookies.outcomes(of: decision, load, CookiesStep.Moment(request, in: state))
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
