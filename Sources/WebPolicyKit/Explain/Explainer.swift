import Foundation
import WebPolicyRuntime

/// `webpolicy explain`: one request through the pipeline, every step shown — the load as
/// WebKit sees it, each content rule that matched and what in its trigger made it match,
/// what `ignore-previous-rules` cancelled, the scheme gate, interception and cookies — for
/// "why is this blocked?" without writing a trace. The decision is the engine's own
/// (`DecisionEngine`, as simulate and the runtime decide); this only describes it.
public struct Explainer {
    public let policy: Policy
    public let suffixes: PublicSuffixList
    /// The policy's one build: its rules as compile lowers them (by rule position, to show
    /// their triggers), and the engine that decides.
    let build: PolicyBuild
    private let lowered: [LoweredRule]

    /// Where the policy's list engines are kept between runs (`EngineCache`).
    public var engineCache: EngineCache?
    /// The `runtime-hosts` roles bound for the request (`--bind`).
    public private(set) var bindings = HostBindings()

    public init(policy: Policy, publicSuffixList: PublicSuffixList, engineCache: EngineCache? = nil) {
        self.policy = policy
        suffixes = publicSuffixList
        self.engineCache = engineCache
        build = PolicyBuild(policy)
        lowered = build.loweredRules
    }

    /// Binds a role as a trace's `bind` line does; a binding the policy refuses is an input error.
    public mutating func bind(_ request: BindRequest) throws(InputError) {
        let decision = build.engine(publicSuffixList: suffixes, engineCache: engineCache).decide(request)
        guard decision.verdict == .allow, let binding = decision.binding else {
            throw InputError("--bind \(request.role)=\(request.url): the policy refuses it: \(decision.reason)")
        }
        bindings[request.role] = binding
    }

    /// `  with ${server} bound to https://ha.example.com (policy.yaml:4)`, a line for each role,
    /// and how to bind one that is not.
    var boundRoles: String {
        policy.runtimeHosts.map { role in
            let name = role.name.value
            guard let binding = bindings[name] else {
                return "  with ${\(name)} unbound (\(role.location.described)): its entries admit nothing; --bind \(name)=URL binds it\n"
            }
            return "  with ${\(name)} bound to \(binding.origin) (\(role.location.described))\n"
        }.joined()
    }

    /// The explanation of `url` loaded as `type` (the trace format's words). `top`: the page
    /// it belongs to — for a navigation (`page`, `top-document`), the page it leaves.
    /// `frame`: for a subresource, the URL of the iframe's document that loads it (nil: the
    /// main frame).
    public func explain(url text: String, type: String, top topText: String?, method: String?, by initiator: NavigationInitiator? = nil,
                        frame frameText: String? = nil) throws(InputError) -> (text: String, verdict: Verdict) {
        guard let known = LoadKind.types[type] else {
            throw InputError("unknown request type '\(type)'; one of \(LoadKind.types.keys.sorted().joined(separator: ", "))")
        }
        let url = try Self.parse(text, what: "the URL")
        let top = try topText.map { text throws(InputError) in try Self.parse(text, what: "--top") }
        let frame = try frameText.map { text throws(InputError) in try Self.parse(text, what: "--frame") }
        if frame != nil, known.kind != .resource {
            throw InputError("--frame URL goes with a subresource or an iframe's load; a navigation of the main frame has no other frame")
        }
        let request = LoadRequest(kind: known.kind, resourceType: known.type, url: url, top: known.kind == .resource ? top : nil, frame: frame,
                                  method: method?.uppercased(), initiator: initiator)
        var state = WebViewState(top: known.kind == .resource ? nil : top, pagesLoaded: top == nil ? 0 : 1)
        state.bindings = bindings
        let engine = build.engine(publicSuffixList: suffixes, engineCache: engineCache)
        var scratch = engine.makeScratch()
        let decision = engine.decide(request, in: state, scratch: &scratch)

        var out = "\(type) \(url.description)\n"
        let pageURL = known.kind == .resource ? (top ?? url) : url.withoutFragment
        if known.kind == .resource {
            let third = suffixes.isThirdParty(resourceHost: url.host, topHost: pageURL.host)
            let domain = pageURL.host.map { suffixes.registrableDomain(of: $0) } ?? ""
            out += "  on the page \(pageURL.description): \(third ? "third-party" : "first-party")"
            out += domain.isEmpty ? "\n" : " (\(third ? "outside" : "within") \(domain))\n"
            if let frame { out += "  made by the iframe showing \(frame.description)\n" }
        } else {
            out += "  a navigation of the main frame" + (top.map { ", leaving \($0.description)" } ?? ", the web view's first") + "\n"
        }
        out += boundRoles
        if let method { out += "  method \(method.uppercased())\n" }

        out += "\n"
        if policy.navigation != nil || policy.appBoundDomains != nil {
            out += "0. navigation: " + navigationStep(decision, request: request, isFirstPage: state.pagesLoaded == 0)
        }
        if decision.record.endedAtNavigation {
            // The delegate cancelled it, or WebKit refused it: nothing loads, nothing else runs.
            out += "1-4. content rules, scheme gate, interception, cookies: not reached\n"
        } else {
            out += "1. content rules\n"
            out += contentRules(decision)
            out += "\n2. scheme gate: " + gate(decision) + "\n"
            out += "3. interception: " + interception(decision) + "\n"
            out += "4. cookies: " + cookies(decision, request: request, state: state, engine: engine)
        }
        var finalURL = ""
        if decision.finalURL != url { finalURL = " → \(decision.finalURL.requestString)" }
        out += "\nverdict: \(decision.verdict.rawValue)\(finalURL)\n  why: \(decision.reason)\n"
        return (out, decision.verdict)
    }

    private static func parse(_ text: String, what: String) throws(InputError) -> CanonicalURL {
        switch CanonicalURL.parse(text) {
        case .success(let url): return url
        case .failure(let error): throw InputError("\(what) '\(text)' is not a URL: \(error.message)")
        }
    }

    // MARK: Steps

    /// Step 0: what `navigation:` and App-Bound Domains said, and how the navigation started.
    private func navigationStep(_ decision: Decision, request: LoadRequest, isFirstPage: Bool) -> String {
        let isNavigation = request.kind != .resource || request.resourceType == .popup || request.resourceType == .childDocument
        guard isNavigation else { return "not a navigation: a subresource goes where its page sends it\n" }
        let by = request.initiator ?? (isFirstPage ? .app : .link)
        var out = ""
        if decision.record.endedAtNavigation {
            out += decision.why.text + "\n"
        } else {
            if let location = decision.admittedBy, let page = policy.navigation?.schemePages.first(where: { $0.location == location }) {
                out += "navigation.pages entry 'scheme: \(page.schemeName)' (\(page.location.described)) admits it: a page the app serves itself\n"
            } else if decision.admittedBy != nil, let entry = admittingEntry(decision) {
                // A role entry says what it is bound to: the binding decided as much as the entry.
                let bound = entry.entry.scope.role.map { role in bindings[role].map { " (bound to \($0.origin))" } ?? "" } ?? ""
                out += "navigation.\(entry.section) entry '\(entry.entry.host.value)'\(bound) (\(entry.entry.location.described)) admits it\n"
            } else if policy.navigation == nil {
                out += "the policy says nothing of where the view may go\n"
            } else {
                out += "not a web document: the scheme gate decides it\n"
            }
        }
        out += "   started by \(by.startedBy)\(by.isUserActivated ? " (the user)" : ", not the user")\n"
        if let section = policy.appBoundDomains {
            if decision.record.endedAtNavigation {
                // Refused or handed over before WebKit's check, or by it: said above.
            } else {
                switch decision.appBound {
                case .boundBy(let index)?:
                    if let domains = section.domains?.value, domains.indices.contains(index) {
                        out += "   app-bound: yes, by the entry '\(domains[index].value)' (\(domains[index].location.described))\n"
                    }
                case .alwaysBound?: out += "   app-bound: yes: WebKit treats this URL as app-bound whatever the list says\n"
                case .unbound?: out += "   app-bound: no — the page loads without App-Bound Domains' APIs (limit-navigations is off)\n"
                case nil:
                    out += request.resourceType == .childDocument ? "   app-bound: WebKit checks main-frame navigations only\n"
                        : "   app-bound: not checked: the app's delegate cancels the navigation first\n"
                }
            }
        }
        return out
    }

    private func admittingEntry(_ decision: Decision) -> (entry: NavigationEntry, section: String)? {
        guard let location = decision.admittedBy, let navigation = policy.navigation else { return nil }
        if let entry = navigation.pages.first(where: { $0.location == location }) { return (entry, "pages") }
        if let entry = navigation.frames.first(where: { $0.location == location }) { return (entry, "frames") }
        return nil
    }

    private func contentRules(_ decision: Decision) -> String {
        let content = decision.content
        guard !content.lists.isEmpty else { return "   the policy has no content rules\n" }
        var out = ""
        let checks: [(String, [ContentRuleEngine.ListResult])] = content.second.isEmpty
            ? [("", content.lists)]
            : [("first check", content.lists), ("second check (a ping's URL as sent, or a popup's new window)", content.second)]
        for (label, lists) in checks {
            if !label.isEmpty { out += "   \(label):\n" }
            for (number, list) in lists.enumerated() {
                let name = lists.count > 1 ? "list \(number + 1) of \(lists.count)" : "the policy's list"
                let matched = list.matched
                if matched.isEmpty {
                    out += "   \(name): no rule matches\n"
                    continue
                }
                out += "   \(name): \(matched.count) rule\(matched.count == 1 ? "" : "s") match\(matched.count == 1 ? "es" : "")\n"
                let surviving = Set(list.surviving)
                for rule in matched.prefix(Self.shownRules) {
                    let origin = list.engine.origin(of: rule)
                    let state = surviving.contains(rule) ? "acts" : "cancelled"
                    out += "     \(origin.described): \(list.engine.action(of: rule).rawValue), \(state)\n"
                    if let trigger = trigger(of: origin) { out += "       \(trigger)\n" }
                }
                if matched.count > Self.shownRules { out += "     … and \(matched.count - Self.shownRules) more\n" }
                if let ignore = list.ignoredByOrigin {
                    out += "     ignore-previous-rules \(ignore.described) cancels every rule of this list before it\n"
                }
            }
        }
        let acting = decision.actions
        out += "   acting: \(acting.isEmpty ? "nothing" : acting.map(\.rawValue).joined(separator: ", "))\n"
        if !decision.hiddenSelectors.isEmpty { out += "   hides: \(decision.hiddenSelectors.joined(separator: ", "))\n" }
        return out
    }

    static let shownRules = 20

    /// What the rule's trigger asks of a load — every part of it held for this one.
    private func trigger(of origin: RuleOrigin) -> String? {
        guard let json = ruleJSON(of: origin), let trigger = json.member("trigger") else { return nil }
        var parts: [String] = []
        if let filter = trigger.member("url-filter")?.stringValue { parts.append("url-filter \(filter)") }
        for key in ["resource-type", "load-type", "load-context"] {
            if let values = trigger.member(key)?.arrayValue?.compactMap(\.stringValue), !values.isEmpty { parts.append("\(key) \(values.joined(separator: ","))") }
        }
        if let method = trigger.member("request-method")?.stringValue { parts.append("request-method \(method)") }
        for condition in ConditionKind.allCases {
            if let values = trigger.member(condition.rawValue)?.arrayValue?.compactMap(\.stringValue), !values.isEmpty {
                parts.append("\(condition.rawValue) \(values.prefix(5).joined(separator: ","))\(values.count > 5 ? ",…" : "")")
            }
        }
        return parts.joined(separator: "; ")
    }

    /// The rule's JSON: a lowered policy rule, or a rule of a referenced list.
    private func ruleJSON(of origin: RuleOrigin) -> JSONValue? {
        if let path = origin.location?.path, let external = policy.contentRuleLists.first(where: { $0.file.path == path }) {
            return external.rules.first { $0.index == origin.index }?.rule
        }
        return origin.index >= 0 && origin.index < lowered.count ? lowered[origin.index].json : nil
    }

    /// From the decision's record: whether the gate ran, and whether it decided.
    private func gate(_ decision: Decision) -> String {
        guard decision.record.ran(.schemeGate) else { return "not reached: a content rule blocks the load" }
        if decision.record.decidedAt == .schemeGate { return decision.why.text }
        switch decision.why {
        case .secureScheme, .webKitScheme:
            return decision.why.text
        case .upgradedByRule:
            return "\(decision.finalURL.scheme) (after the upgrade) passes"
        default:
            return "\(decision.finalURL.scheme) passes"
        }
    }

    private func interception(_ decision: Decision) -> String {
        if let rule = decision.interception {
            return "\(rule.id.map { "'\($0)'" } ?? "a rule") (\(rule.location?.described ?? "")) " + (rule.serve.map { "serves it from \($0)" } ?? rule.handler.map { "hands it to \($0)" } ?? "answers it")
        }
        if decision.verdict == .block { return "not reached" }
        return policy.interception.isEmpty ? "the policy intercepts nothing" : "no interception rule matches"
    }

    /// The cookies sent, then each of the policy's cookies with the condition that decided it.
    private func cookies(_ decision: Decision, request: LoadRequest, state: WebViewState, engine: DecisionEngine) -> String {
        if policy.cookies.isEmpty { return "the policy sets none\n" }
        if decision.verdict == .block || decision.verdict == .intercept { return "not sent: the load does not reach the network\n" }
        if decision.isHandedToSystem { return "not sent: the system opens the URL, not the web view\n" }
        if decision.actions.contains(.blockCookies) { return "none: a block-cookies rule acts\n" }
        var out = (decision.cookies.isEmpty ? "none" : decision.cookies.joined(separator: ", ")) + "\n"
        let outcomes = engine.cookieOutcomes(for: request, in: state, decision: decision)
        for (cookie, outcome) in outcomes.prefix(Self.shownRules) {
            let place = cookie.location.map { " (\($0.described))" } ?? ""
            out += "   '\(cookie.name)'\(place): " + (outcome.reason(for: cookie).map { "not sent: \($0)" } ?? "sent") + "\n"
        }
        if outcomes.count > Self.shownRules { out += "   … and \(outcomes.count - Self.shownRules) more\n" }
        return out
    }
}
