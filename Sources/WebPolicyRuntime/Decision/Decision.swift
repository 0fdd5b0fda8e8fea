/// What the engine decides for one request.
public struct Decision: Sendable {
    /// The main document's URL the load was checked with.
    public var topURL: CanonicalURL
    public var verdict: Verdict
    /// The URL the load continues with (upgraded by `make-https`).
    public var finalURL: CanonicalURL
    /// What the content rules did, as rule positions; the fields below read it.
    public var content = ContentMatches()
    /// The rule or policy entry that decided the verdict, if one did.
    public var decidedBy: RuleOrigin?
    /// Why, as data; `reason` says it in words (built only when shown).
    public var why: Why = .noRuleMatches
    /// Names of the policy's cookies the request carries.
    public var cookies: [String] = []
    /// The interception rule that serves the load (`verdict == .intercept`).
    public var interception: Manifest.Interception? {
        get { rare?.interception }
        set { writableRare().interception = newValue }
    }
    /// The scheme-allowlist entry that hands the URL to the system.
    public var handedToSystem: Manifest.SchemeAllowlistEntry? {
        get { rare?.handedToSystem }
        set { writableRare().handedToSystem = newValue }
    }
    /// The web view cancels the navigation and the system opens the URL: a scheme the
    /// allowlist hands over, or a link outside `navigation.pages` (docs/decisions.md).
    public var isHandedToSystem = false
    /// A new window loaded in the same view (`navigation.new-windows: same-view`) becomes the
    /// view's page, as a `page` does.
    public var replacesPage = false
    /// The `navigation.pages` or `frames` entry that admitted the document, if one did.
    public var admittedBy: SourceLocation? {
        get { rare?.admittedBy }
        set { writableRare().admittedBy = newValue }
    }
    /// What WebKit's App-Bound Domains check found for a main-frame navigation it ran on;
    /// nil when it did not run (no `app-bound-domains`, not a main-frame navigation, or one
    /// the delegate cancelled first).
    public var appBound: AppBoundCheck?
    /// For a script message: the bridge that admitted it and which of its origins.
    public var bridge: BridgeAdmission?
    /// For a binding the policy accepts: what the role is bound to from now on.
    public var binding: HostBinding? {
        get { rare?.binding }
        set { writableRare().binding = newValue }
    }
    /// Which steps of the pipeline ran, and which decided.
    public var record = PipelineRecord()
    /// What few decisions have — an interception rule, a scheme entry, a navigation entry —
    /// kept apart (copy on write): inline they were two thirds of a decision's size, copied
    /// with every decision of every request.
    private var rare: Rare?

    private final class Rare: @unchecked Sendable {
        // Mutated only through a uniquely referenced Decision.
        var interception: Manifest.Interception?
        var handedToSystem: Manifest.SchemeAllowlistEntry?
        var admittedBy: SourceLocation?
        var binding: HostBinding?

        init() {}

        func copy() -> Rare {
            let copy = Rare()
            (copy.interception, copy.handedToSystem, copy.admittedBy, copy.binding) = (interception, handedToSystem, admittedBy, binding)
            return copy
        }
    }

    private mutating func writableRare() -> Rare {
        if rare == nil {
            rare = Rare()
        } else if !isKnownUniquelyReferenced(&rare!) {
            rare = rare!.copy()
        }
        return rare!
    }

    init(topURL: CanonicalURL, verdict: Verdict, finalURL: CanonicalURL) {
        self.topURL = topURL
        self.verdict = verdict
        self.finalURL = finalURL
    }

    /// The WebKit actions that survive, in the order block, block-cookies, css-display-none,
    /// make-https, notify (each once).
    public var actions: [ContentActionType] { content.actions }
    /// Every content rule whose trigger matched, in rule order, before ignore rules.
    public var matchedRules: [RuleOrigin] { content.matchedRules }
    /// The `ignore-previous-rules` that cancelled earlier matches, if one did.
    public var cancelledBy: RuleOrigin? { content.cancelledBy }
    public var hiddenSelectors: [String] { content.hiddenSelectors }
    public var notifications: [String] { content.notifications }

    /// The decision of a step that ends the pipeline with no policy entry or rule to name
    /// beyond `location` (the navigation steps): refused, or handed to the system.
    func ended(at step: PipelineStep, handedOff: Bool, why: Why, by location: SourceLocation?) -> Decision {
        var result = self
        if handedOff { result.isHandedToSystem = true } else { result.verdict = .block }
        result.why = why
        result.decidedBy = RuleOrigin(index: -1, id: nil, location: location)
        result.record.decide(at: step)
        return result
    }

    public var reason: String {
        let prefix = cancelledBy.flatMap { $0 == decidedBy ? nil : "content rule \($0.described) cancels the rules before it; " } ?? ""
        return prefix + why.text
    }
}

/// Why a request got its verdict. The cases that carry a source location are boxed: a
/// decision is copied from step to step and into every result, and the common cases (no rule,
/// a rule blocks) should not carry the size of the rare ones.
public enum Why: Sendable {
    case blockedByRule(RuleOrigin)
    case upgradedByRule(RuleOrigin, to: String)
    case noRuleMatches
    case noSurvivingRule
    case secureScheme(String)
    case insecureNotAllowlisted(scheme: String, host: String?)
    indirect case allowlisted(host: String, at: SourceLocation?)
    case webKitScheme(String)
    case schemeHandler(RuleOrigin, scheme: String)
    /// `entries`: the scheme's allowlist entries, each with the limit the URL is outside of;
    /// empty when the scheme is not on the allowlist at all.
    case schemeNotAllowed(scheme: String, entries: [SchemeEntryMiss])
    indirect case handedToSystem(scheme: String, at: SourceLocation?)
    case intercepted(RuleOrigin)
    /// The runtime API was given a URL that does not parse.
    case unparsableURL(String)
    /// `navigation.pages` (or `frames`) admits the document.
    indirect case navigationAdmitted(entry: String, section: String, at: SourceLocation?)
    /// A web document outside `navigation.pages` (`frames`): handed to the system when the
    /// user activated a link and `otherwise` says so, else refused.
    /// `unbound`: the roles of the section's entries that nothing is bound to, which admit no
    /// document until the app binds them.
    indirect case navigationOutside(String, by: NavigationInitiator, openedExternally: Bool, at: SourceLocation?, unbound: [String] = [])
    /// `navigation.new-windows` refuses a new window.
    indirect case newWindowRefused(NewWindowPolicy, by: NavigationInitiator, at: SourceLocation?)
    /// `new-windows: open-externally` hands a link the user activated to the system.
    indirect case newWindowOpenedExternally(at: SourceLocation?)
    /// WebKit refuses a main-frame navigation away from the app-bound domains.
    indirect case appBoundRefused(host: String, at: SourceLocation?)
    /// A bridge admits a script message: its name, the origin entry that admits the frame.
    indirect case messageAdmitted(String, origin: String, at: SourceLocation?)
    /// `webview.javascript: false`: the page's own scripts do not run, so none posts.
    indirect case messageJavaScriptOff(at: SourceLocation?)
    /// WebKit hides the message handlers: from every page (`host` nil: app-bound domains
    /// without `limit-navigations`), or from a frame whose host is not app-bound.
    indirect case messageAppBoundHidden(host: String?, at: SourceLocation?)
    /// No bridge has the handler's name: `window.webkit.messageHandlers.<name>` is undefined.
    case messageNoHandler(String, declared: [String])
    /// The handler exists only in other content worlds.
    indirect case messageWrongWorld(String, world: String, declared: [String], at: SourceLocation?)
    /// The bridge admits the main frame only (`frames: main`).
    indirect case messageChildFrame(String, at: SourceLocation?)
    /// The frame's origin is none of the bridge's.
    /// `unbound`: the roles of the bridge's origins that nothing is bound to.
    indirect case messageOriginRefused(String, origin: String, at: SourceLocation?, unbound: [String] = [])
    /// Plain http to the origin a role is bound to over http: on the local network, or
    /// anywhere when the role says `http: anywhere`.
    indirect case boundOverHTTP(String, host: String, localNetwork: Bool, at: SourceLocation?)
    /// The policy accepts a binding of a role (`${server}`) to an origin.
    indirect case roleBound(String, origin: String, at: SourceLocation?)
    /// The policy refuses a binding: `problem` says what of the role it breaks. The role is
    /// unbound from then on.
    indirect case roleBindingRefused(String, origin: String, problem: String, at: SourceLocation?)
    /// `webview.permissions` refuses a capability without asking the user (`deny`).
    indirect case permissionDenied(String, at: SourceLocation?)
    /// The requesting frame's origin is none of those `webview.permissions` lists for it.
    indirect case permissionOriginRefused(String, origin: String, at: SourceLocation?, unbound: [String] = [])
    /// A listed host over plain http: not a secure context, so its pages cannot ask.
    indirect case permissionInsecure(String, origin: String, at: SourceLocation?)
    /// `webview.permissions` lets the origin ask: WebKit asks the user (`ask`, or a listed origin).
    indirect case permissionAsked(String, origin: String, at: SourceLocation?)
    /// `webview.permissions` does not name the capability: WebKit asks the user, its own default.
    case permissionNotSaid(String)

    public var text: String {
        switch self {
        case .blockedByRule(let rule): return "content rule \(rule.described) blocks it"
        case .upgradedByRule(let rule, let url): return "content rule \(rule.described) upgrades it to \(url)"
        case .noRuleMatches: return "no content rule matches it"
        case .noSurvivingRule: return "no surviving content rule blocks or upgrades it"
        case .secureScheme(let scheme): return "\(scheme) passes the scheme gate"
        case .insecureNotAllowlisted(let scheme, let host): return "plain \(scheme) to \(host ?? "no host"), which is not on the http-allowlist"
        case .allowlisted(let host, let location): return "\(host) is on the http-allowlist\(Self.at(location))"
        case .webKitScheme(let scheme): return "WebKit handles \(scheme): URLs itself"
        case .schemeHandler(let rule, let scheme): return "interception rule \(rule.described) handles the \(scheme) scheme"
        case .schemeNotAllowed(let scheme, let entries):
            guard !entries.isEmpty else { return "the scheme \(scheme) has no handler and is not on the scheme-allowlist" }
            return entries.map { "the scheme-allowlist's \(scheme): entry\(Self.at($0.location)) \($0.text)" }.joined(separator: "; ")
        case .handedToSystem(let scheme, let location): return "the scheme-allowlist hands \(scheme): URLs to the system\(Self.at(location))"
        case .intercepted(let rule): return "interception rule \(rule.described) serves it"
        case .unparsableURL(let problem): return "the URL does not parse (\(problem)), so WebKit would not load it"
        case .navigationAdmitted(let entry, let section, let location):
            return "navigation.\(section) entry \(entry)\(Self.at(location)) admits it"
        case .navigationOutside(let section, let by, let openedExternally, let location, let unbound):
            let roles = Self.unbound(unbound)
            if openedExternally { return "outside navigation.\(section)\(Self.at(location))\(roles): a link the user activated opens outside the app (otherwise: open-externally)" }
            let started = by == .link ? "and navigation.otherwise is block" : "and \(by.startedBy) started it, not the user: only a link the user activates may leave the app"
            return section == "frames" ? "outside navigation.frames and pages\(Self.at(location))\(roles): the iframe is refused" : "outside navigation.pages\(Self.at(location))\(roles), \(started)"
        case .newWindowRefused(let policy, let by, let location):
            return policy == .block ? "navigation.new-windows is block\(Self.at(location)): no new window opens"
                : "navigation.new-windows is open-externally\(Self.at(location)), and \(by.startedBy) opened the window, not a link the user activated"
        case .newWindowOpenedExternally(let location): return "navigation.new-windows\(Self.at(location)) opens a link the user activated outside the app"
        case .appBoundRefused(let host, let location):
            let what = host.hasSuffix(":") ? "the scheme \(host) is not app-bound (an entry '\(host)' would bind it)" : "\(host) is not in an app-bound domain"
            return "WebKit refuses the navigation: \(what), and limit-navigations is on\(Self.at(location)) (WKError.navigationAppBoundDomain)"
        case .messageAdmitted(let name, let origin, let location):
            return "bridge '\(name)' admits it: origin \(origin)\(Self.at(location))"
        case .messageJavaScriptOff(let location):
            return "webview.javascript is false\(Self.at(location)): the page's own scripts do not run, so none can post (the app's user scripts still run, in a client or named world)"
        case .messageAppBoundHidden(let host, let location):
            guard let host else {
                return "app-bound-domains without limit-navigations\(Self.at(location)): WebKit hides window.webkit.messageHandlers from every page"
            }
            return "\(host) is not in an app-bound domain\(Self.at(location)): WebKit hides window.webkit.messageHandlers from its frame"
        case .messageNoHandler(let name, let declared):
            let known = declared.isEmpty ? "the policy declares no bridge" : "the bridges are \(declared.map { "'\($0)'" }.joined(separator: ", "))"
            return "no bridge is named '\(name)' (\(known)): window.webkit.messageHandlers.\(name) is undefined"
        case .messageWrongWorld(let name, let world, let declared, let location):
            return "bridge '\(name)'\(Self.at(location)) is registered in the \(declared.joined(separator: ", ")) world, not \(world): scripts of the \(world) world do not see it"
        case .messageChildFrame(let name, let location):
            return "bridge '\(name)' admits the main frame only (frames: main\(location.map { ", " + $0.described } ?? "")), and an iframe posted it"
        case .messageOriginRefused(let name, let origin, let location, let unbound):
            return "bridge '\(name)' does not admit the origin \(origin)\(Self.at(location))\(Self.unbound(unbound))"
        case .boundOverHTTP(let role, let host, let localNetwork, let location):
            let rule = localNetwork ? "which allows plain http on the local network" : "which allows plain http anywhere (http: anywhere)"
            return "plain http to \(host), bound to ${\(role)}, \(rule)\(Self.at(location))"
        case .roleBound(let role, let origin, let location):
            return "runtime-hosts binds ${\(role)} to \(origin)\(Self.at(location))"
        case .roleBindingRefused(let role, let origin, let problem, let location):
            return "runtime-hosts refuses to bind ${\(role)} to \(origin)\(Self.at(location)): \(problem); ${\(role)} is unbound until a binding is accepted"
        case .permissionDenied(let kind, let location):
            return "webview.permissions.\(kind) is deny\(Self.at(location)): WebKit refuses it without asking the user"
        case .permissionOriginRefused(let kind, let origin, let location, let unbound):
            return "webview.permissions.\(kind) does not list the origin \(origin)\(Self.at(location))\(Self.unbound(unbound)): WebKit refuses it without asking the user"
        case .permissionInsecure(let kind, let origin, let location):
            return "\(origin) is plain http: webview.permissions.\(kind)\(Self.at(location)) lists its host, but only a secure context (https) may ask, so WebKit never asks"
        case .permissionAsked(let kind, let origin, let location):
            return "webview.permissions lets \(origin) ask for \(kind)\(Self.at(location)): WebKit asks the user"
        case .permissionNotSaid(let kind):
            return "webview.permissions does not name \(kind): WebKit asks the user, its default"
        }
    }

    private static func at(_ location: SourceLocation?) -> String {
        location.map { " (\($0.described))" } ?? ""
    }

    /// `; ${server} is unbound, so its entries admit nothing`, for the roles nothing is bound to.
    private static func unbound(_ roles: [String]) -> String {
        guard !roles.isEmpty else { return "" }
        let names = roles.map { "${\($0)}" }.joined(separator: ", ")
        return " — \(names) \(roles.count == 1 ? "is" : "are") unbound (never bound, or the last binding was refused), so \(roles.count == 1 ? "its entries admit" : "their entries admit") nothing"
    }
}

/// The bridge (its index in the manifest's `bridges`) and origin entry that admit a message.
public struct BridgeAdmission: Sendable, Equatable {
    public var bridge: Int
    public var origin: Int
}

/// The outcome of WebKit's App-Bound Domains check for one navigation.
public enum AppBoundCheck: Sendable, Equatable {
    /// In the domain or scheme of the entry at this index of `app-bound-domains`.
    case boundBy(Int)
    /// Bound whatever the list says: localhost, about:, data:, blob:, file:, javascript:.
    case alwaysBound
    /// Not bound: refused with `limit-navigations`, else a page without app-bound APIs.
    case unbound
}

/// A scheme-allowlist entry for a URL's scheme that does not admit the URL, and why.
public struct SchemeEntryMiss: Sendable, Equatable {
    public var location: SourceLocation?
    /// The limit the URL is outside of: its host not among `hosts`, or its path under none
    /// of `paths` (the host is checked first, as the gate does).
    public enum Limit: Sendable, Equatable {
        case hosts([String], host: String)
        case paths([String], path: String)
    }
    public var limit: Limit

    public init(location: SourceLocation?, limit: Limit) {
        self.location = location
        self.limit = limit
    }

    public var text: String {
        switch limit {
        case .hosts(let hosts, let host):
            return "admits only the host\(hosts.count == 1 ? "" : "s") \(hosts.joined(separator: ", ")), and this URL's host is \(host.isEmpty ? "empty" : host)"
        case .paths(let paths, let path):
            return "admits only paths under \(paths.joined(separator: ", ")), and this URL's path is \(path.isEmpty ? "empty" : path)"
        }
    }
}

extension RuleOrigin {
    /// `'id' (file:line) [expansion]`, or `#n` for a rule without an id.
    public var described: String {
        var text = id.map { "'\($0)'" } ?? "#\(index + 1)"
        if let location { text += " (\(location.described))" }
        if let expansion { text += " [\(expansion)]" }
        return text
    }
}

extension SourceLocation {
    /// `file:line`, as reasons name a rule.
    public var described: String { "\(path):\(range.start.line)" }
}
