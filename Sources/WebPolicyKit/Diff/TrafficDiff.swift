import WebPolicyRuntime

/// What a policy change does to traffic (`webpolicy diff OLD NEW TRACES…`): every request
/// whose verdict, final URL, cookies or hidden selectors differ between the two policies,
/// grouped by what changed and by the rule or entry that decided it before and after.
public struct TrafficDiff: Sendable {
    /// What one policy made of a request, as far as the diff compares it.
    public struct Outcome: Sendable, Equatable {
        public var verdict: Verdict
        public var finalURL: String
        /// Sorted.
        public var cookies: [String]
        /// Sorted.
        public var hiddenSelectors: [String]
    }

    public struct Change: Sendable {
        public var trace: String
        public var line: Int
        public var url: String
        public var type: String
        public var old: Outcome
        public var new: Outcome
    }

    /// Requests that changed the same way for the same reasons.
    public struct Group: Sendable {
        /// What changed: `allow → block`, `upgrade: final URL`, `cookies`, `hidden elements`.
        public var change: String
        /// The rule or entry that decided it under the old policy, and under the new one.
        public var was: String
        public var now: String
        public var changes: [Change] = []
    }

    public private(set) var changed = 0
    public private(set) var unchanged = 0
    public private(set) var traces: [String] = []
    private var groupIndex: [String: Int] = [:]
    private var groupList: [Group] = []
    private let oldNames: EntryNames
    private let newNames: EntryNames

    public init(old: Policy, new: Policy) {
        oldNames = EntryNames(old)
        newNames = EntryNames(new)
    }

    /// Groups by size, largest first; requests in trace order within each.
    public var groups: [Group] {
        groupList.sorted { ($0.changes.count, $1.change, $1.was, $1.now) > ($1.changes.count, $0.change, $0.was, $0.now) }
    }

    public mutating func add(old: RequestResult, new: RequestResult, trace: String) {
        if traces.last != trace && !traces.contains(trace) { traces.append(trace) }
        let before = Self.outcome(old), after = Self.outcome(new)
        guard before != after else {
            unchanged += 1
            return
        }
        changed += 1
        var aspects: [String] = [], was: [String] = [], now: [String] = []
        if before.verdict != after.verdict || before.finalURL != after.finalURL {
            aspects.append(before.verdict != after.verdict ? "\(before.verdict.rawValue) → \(after.verdict.rawValue)" : "\(after.verdict.rawValue): final URL")
            was.append(oldNames.cause(of: old.decision))
            now.append(newNames.cause(of: new.decision))
        }
        if before.cookies != after.cookies {
            aspects.append("cookies")
            let dropped = before.cookies.filter { !after.cookies.contains($0) }, added = after.cookies.filter { !before.cookies.contains($0) }
            was.append(oldNames.cookies(dropped, sent: true, otherwise: oldNames.cookies(added, sent: false)))
            now.append(newNames.cookies(added, sent: true, otherwise: newNames.cookies(dropped, sent: false)))
        }
        if before.hiddenSelectors != after.hiddenSelectors {
            aspects.append("hidden elements")
            was.append(Self.hiding(old, beyond: after.hiddenSelectors))
            now.append(Self.hiding(new, beyond: before.hiddenSelectors))
        }
        let change = aspects.joined(separator: "; "), wasText = was.joined(separator: "; "), nowText = now.joined(separator: "; ")
        let key = change + "\u{1}" + wasText + "\u{1}" + nowText
        let position: Int
        if let known = groupIndex[key] {
            position = known
        } else {
            position = groupList.count
            groupIndex[key] = position
            groupList.append(Group(change: change, was: wasText, now: nowText))
        }
        // A binding reads as the trace wrote it, with the role it binds: `${server}=http://…`.
        let url = new.entry.bind.map { "${\($0.role)}=\(new.entry.url.description)" } ?? new.entry.url.description
        groupList[position].changes.append(Change(trace: trace, line: new.entry.line, url: url, type: new.entry.typeName, old: before, new: after))
    }

    private static func outcome(_ result: RequestResult) -> Outcome {
        Outcome(verdict: result.verdict, finalURL: result.finalURL.requestString, cookies: result.cookies.sorted(), hiddenSelectors: result.hiddenSelectors.sorted())
    }

    /// The rules of one side that hide what the other side does not.
    private static func hiding(_ result: RequestResult, beyond other: [String]) -> String {
        let rules = result.decision.content.hidingRules.filter { !other.contains($0.selector) }
        guard !rules.isEmpty else { return "nothing else hidden" }
        return rules.map { "content rule \($0.origin.described) hides '\($0.selector)'" }.joined(separator: ", ")
    }
}

/// The policy's entries by location, to name the one that decided a request.
private struct EntryNames: Sendable {
    private let byLocation: [String: String]
    private let cookieNames: [String: String]

    init(_ policy: Policy) {
        var names: [String: String] = [:]
        for item in Coverage(policy: policy).items { names[Self.key(item.location)] = names[Self.key(item.location)] ?? "\(item.kind.rawValue) '\(item.name.trimmingCharacters(in: ["'"]))'" }
        byLocation = names
        var cookies: [String: String] = [:]
        for cookie in policy.cookies {
            let via = (cookie.via?.value ?? .cookieStore).rawValue
            cookies[cookie.name.value] = cookies[cookie.name.value] ?? "cookie '\(cookie.name.value)' (\(cookie.location.described), via \(via))"
        }
        cookieNames = cookies
    }

    private static func key(_ location: SourceLocation) -> String { "\(location.path):\(location.start.line):\(location.start.column)" }

    private func entry(at location: SourceLocation?, otherwise: String) -> String {
        guard let location else { return otherwise }
        return "\(byLocation[Self.key(location)] ?? otherwise) (\(location.described))"
    }

    /// The rule or entry that decided the request, without what is particular to the request,
    /// so that requests decided alike group together.
    func cause(of decision: Decision) -> String {
        switch decision.why {
        case .blockedByRule(let rule), .upgradedByRule(let rule, _): return "content rule \(rule.described)"
        case .noRuleMatches: return "no content rule matches"
        case .noSurvivingRule:
            return decision.cancelledBy.map { "content rule \($0.described) cancels the rules before it" } ?? "no surviving content rule"
        case .secureScheme(let scheme): return "no content rule blocks it; \(scheme) passes the scheme gate"
        case .insecureNotAllowlisted(let scheme, _): return "plain \(scheme) to a host not on the http-allowlist"
        case .allowlisted(_, let location): return entry(at: location, otherwise: "an http-allowlist entry")
        case .webKitScheme(let scheme): return "WebKit handles \(scheme): URLs itself"
        case .schemeHandler(let rule, _), .intercepted(let rule): return "interception rule \(rule.described)"
        case .schemeNotAllowed(let scheme, let entries):
            guard !entries.isEmpty else { return "\(scheme): is not on the scheme-allowlist" }
            let places = entries.compactMap { $0.location?.described }
            return "the scheme-allowlist admits \(scheme): only for other hosts or paths" + (places.isEmpty ? "" : " (\(places.joined(separator: ", ")))")
        case .handedToSystem(let scheme, let location): return entry(at: location, otherwise: "scheme-allowlist entry '\(scheme)'")
        case .unparsableURL: return "the URL does not parse"
        case .navigationAdmitted(let entry, let section, let location): return self.entry(at: location, otherwise: "navigation.\(section) entry \(entry)")
        case .navigationOutside(let section, _, let openedExternally, _, _):
            return openedExternally ? "outside navigation.\(section), opened outside the app" : "outside navigation.\(section), refused"
        case .newWindowRefused(let policy, _, _): return "navigation.new-windows: \(policy.rawValue) refuses the window"
        case .newWindowOpenedExternally: return "navigation.new-windows opens it outside the app"
        case .appBoundRefused: return "not an app-bound domain (limit-navigations)"
        case .messageAdmitted(_, _, let location): return entry(at: location, otherwise: "a bridge's origin entry")
        case .messageJavaScriptOff: return "webview.javascript is false"
        case .messageAppBoundHidden(let host, _): return host == nil ? "app-bound-domains without limit-navigations hides the handlers" : "a frame outside the app-bound domains"
        case .messageNoHandler(let name, _): return "no bridge named '\(name)'"
        case .messageWrongWorld(let name, _, _, let location): return entry(at: location, otherwise: "bridge '\(name)'") + " in another content world"
        case .messageChildFrame(let name, let location): return entry(at: location, otherwise: "bridge '\(name)'") + " admits the main frame only"
        case .messageOriginRefused(let name, _, let location, _): return entry(at: location, otherwise: "bridge '\(name)'") + " admits none of its origins"
        case .boundOverHTTP(let role, _, _, let location): return entry(at: location, otherwise: "role ${\(role)}") + " lets plain http reach its bound host"
        case .roleBound(let role, _, let location): return entry(at: location, otherwise: "role ${\(role)}") + " accepts the binding"
        case .roleBindingRefused(let role, _, _, let location): return entry(at: location, otherwise: "role ${\(role)}") + " refuses the binding"
        case .permissionDenied(let kind, let location): return entry(at: location, otherwise: "webview.permissions.\(kind)") + " denies it"
        case .permissionOriginRefused(let kind, _, let location, _): return entry(at: location, otherwise: "webview.permissions.\(kind)") + " lists none of its origins"
        case .permissionInsecure: return "plain http asks for a permission"
        case .permissionAsked(let kind, _, let location): return entry(at: location, otherwise: "webview.permissions.\(kind)") + " asks the user"
        case .permissionNotSaid: return "webview.permissions says nothing: WebKit asks the user"
        }
    }

    /// `cookie 'a' (file:line, via header) sent`, for the cookies one side sends and the other
    /// does not.
    func cookies(_ names: [String], sent: Bool, otherwise: String? = nil) -> String {
        guard !names.isEmpty else { return otherwise ?? "no cookie" }
        let listed = names.map { name in cookieNames[name] ?? "cookie '\(name)'" }
        return listed.joined(separator: ", ") + (sent ? " sent" : " not sent")
    }
}
