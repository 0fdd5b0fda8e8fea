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
    public var interception: Manifest.Interception?
    /// The scheme-allowlist entry that hands the URL to the system.
    public var handedToSystem: Manifest.SchemeAllowlistEntry?

    /// The WebKit actions that survive, in the order block, block-cookies, css-display-none,
    /// make-https, notify (each once).
    public var actions: [ContentActionType] { content.actions }
    /// Every content rule whose trigger matched, in rule order, before ignore rules.
    public var matchedRules: [RuleOrigin] { content.matchedRules }
    /// The `ignore-previous-rules` that cancelled earlier matches, if one did.
    public var cancelledBy: RuleOrigin? { content.cancelledBy }
    public var hiddenSelectors: [String] { content.hiddenSelectors }
    public var notifications: [String] { content.notifications }

    public var reason: String {
        let prefix = cancelledBy.flatMap { $0 == decidedBy ? nil : "content rule \($0.described) cancels the rules before it; " } ?? ""
        return prefix + why.text
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
    case allowlisted(host: String, at: SourceLocation?)
    case webKitScheme(String)
    case schemeHandler(RuleOrigin, scheme: String)
    /// `entries`: the scheme's allowlist entries, each with the limit the URL is outside of;
    /// empty when the scheme is not on the allowlist at all.
    case schemeNotAllowed(scheme: String, entries: [SchemeEntryMiss])
    case handedToSystem(scheme: String, at: SourceLocation?)
    case intercepted(RuleOrigin)
    /// The runtime API was given a URL that does not parse.
    case unparsableURL(String)

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
        }
    }

    private static func at(_ location: SourceLocation?) -> String {
        location.map { " (\($0.described))" } ?? ""
    }
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
