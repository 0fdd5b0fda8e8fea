/// Step 2 (docs/semantics.md): the scheme gate, on the URL the load continues with — what
/// the app's navigation delegate and ATS let through (seed 000's `shouldAllowHttpRequest` and
/// `shouldAllowScheme`). https and wss pass; plain http and ws only to hosts on the
/// http-allowlist, or to the origin a `runtime-hosts` role is bound to over http; about:, data:
/// and blob: are WebKit's own; any other scheme is the app's to serve (`interception:`), to hand
/// to the system (`scheme-allowlist:`), or refused.
struct SchemeGateStep: Sendable {
    let httpAllowlist: [Manifest.HTTPAllowlistEntry]
    let schemeAllowlist: [Manifest.SchemeAllowlistEntry]
    let interception: InterceptionStep
    /// The roles, for a reason that names the one whose binding lets plain http through.
    var roles: [RuntimeHost] = []

    enum Outcome {
        /// Through, with the reason when the gate is what lets it through: a secure scheme, an
        /// allowlisted host (with its entry), one of WebKit's own schemes.
        case passes(Why?, entry: SourceLocation?)
        case refused(Why)
        /// An app's own scheme that an interception rule serves.
        case served(Manifest.Interception)
        case handedToSystem(Manifest.SchemeAllowlistEntry)
    }

    func decide(_ url: CanonicalURL, method: String?, bindings: HostBindings) -> Outcome {
        switch url.scheme {
        case "https", "wss":
            return .passes(.secureScheme(url.scheme), entry: nil)
        case "http", "ws":
            if let entry = allowlistEntry(for: url, bindings: bindings) {
                let host = entry.host.role.map { "\(url.host ?? ""), bound to ${\($0)}," } ?? url.host ?? ""
                return .passes(.allowlisted(host: host, at: entry.location), entry: entry.location)
            }
            if let binding = boundOverHTTP(url, bindings) {
                let role = roles.first { $0.name == binding.role }
                return .passes(.boundOverHTTP(binding.role, host: binding.host, localNetwork: role?.http != .anywhere, at: role?.location), entry: role?.location)
            }
            return .refused(.insecureNotAllowlisted(scheme: url.scheme, host: url.host))
        case _ where WebKitSchemes.local.contains(url.scheme):
            return .passes(.webKitScheme(url.scheme), entry: nil)
        default:
            if let handler = interception.rule(for: url, method: method, bindings: bindings) { return .served(handler) }
            guard let allowed = schemeEntry(for: url) else { return .refused(.schemeNotAllowed(scheme: url.scheme, entries: schemeMisses(for: url))) }
            return .handedToSystem(allowed)
        }
    }

    /// Whether the gate lets an http(s) or ws(s) URL through: the app's
    /// `shouldAllowHttpRequest`. false for other schemes.
    func allowsWebRequest(_ url: CanonicalURL, bindings: HostBindings) -> Bool {
        switch url.scheme {
        case "https", "wss": return true
        case "http", "ws": return allowlistEntry(for: url, bindings: bindings) != nil || boundOverHTTP(url, bindings) != nil
        default: return false
        }
    }

    /// Whether the delegate cancels a navigation to `url` before WebKit's App-Bound Domains
    /// check: a scheme that is neither the web's, one WebKit binds anyway, nor one the app
    /// serves is handed to the system or refused by this gate.
    func delegateCancels(_ url: CanonicalURL, method: String?, bindings: HostBindings) -> Bool {
        !WebKitSchemes.delegateKeeps(url.scheme) && interception.rule(for: url, method: method, bindings: bindings) == nil
    }

    /// The http-allowlist entry that admits a plain http or ws URL's host: a host entry by
    /// the host, a role entry by the bound origin (a role bound to https admits no plain http).
    func allowlistEntry(for url: CanonicalURL, bindings: HostBindings) -> Manifest.HTTPAllowlistEntry? {
        httpAllowlist.first { $0.host.matches(url, in: bindings) }
    }

    /// The binding whose origin a plain http or ws URL is: a role the policy let bind to plain
    /// http (its schemes name http, and the host is on the local network unless it says
    /// `http: anywhere`) lets the app reach that server, as ATS's `NSAllowsLocalNetworking` does.
    func boundOverHTTP(_ url: CanonicalURL, _ bindings: HostBindings) -> HostBinding? {
        guard !bindings.isEmpty, let host = url.host else { return nil }
        return bindings.first { $0.scheme == "http" && $0.host == host && $0.port == url.port }
    }

    /// The scheme-allowlist entry that hands `url` to the system: its scheme, and its host and
    /// path when the entry names them.
    func schemeEntry(for url: CanonicalURL) -> Manifest.SchemeAllowlistEntry? {
        schemeAllowlist.first { $0.scheme == url.scheme && miss(of: $0, for: url) == nil }
    }

    /// Each entry for the URL's scheme with the limit that leaves the URL out (the same tests
    /// as `schemeEntry(for:)`, which admits none of them).
    private func schemeMisses(for url: CanonicalURL) -> [SchemeEntryMiss] {
        schemeAllowlist.compactMap { entry in
            guard entry.scheme == url.scheme, let limit = miss(of: entry, for: url) else { return nil }
            return SchemeEntryMiss(location: entry.location, limit: limit)
        }
    }

    /// The limit of `entry` that leaves `url` out: its hosts (checked first), then its paths.
    private func miss(of entry: Manifest.SchemeAllowlistEntry, for url: CanonicalURL) -> SchemeEntryMiss.Limit? {
        let host = url.host ?? ""
        if let hosts = entry.hosts, !hosts.contains(where: { $0.lowercased() == host.lowercased() }) { return .hosts(hosts, host: host) }
        if let paths = entry.paths, !paths.contains(where: { url.path.hasPrefix($0) }) { return .paths(paths, path: url.path) }
        return nil
    }
}

extension Decision {
    /// Step 2's outcome on the decision for `url`; true when it ends the pipeline. The content
    /// rules' upgrade is the reason when there is one; an admitting `navigation` entry speaks
    /// for a secure document it let in.
    mutating func take(_ outcome: SchemeGateStep.Outcome, on url: CanonicalURL, admission: (why: Why, origin: RuleOrigin)?) -> Bool {
        switch outcome {
        case .passes(let reason, let entry):
            guard record.decidedAt == nil else { return false }
            if case .secureScheme = reason, let admission {
                (why, decidedBy) = (admission.why, admission.origin)
                record.decide(at: .navigation)
            } else if let reason {
                why = reason
                if let entry {
                    decidedBy = RuleOrigin(index: -1, id: nil, location: entry)
                    record.decide(at: .schemeGate)
                }
            }
            return false
        case .refused(let reason):
            (verdict, decidedBy, why) = (.block, nil, reason)
        case .served(let handler):
            (verdict, decidedBy, interception) = (.intercept, InterceptionStep.origin(of: handler), handler)
            why = .schemeHandler(InterceptionStep.origin(of: handler), scheme: url.scheme)
        case .handedToSystem(let entry):
            (handedToSystem, isHandedToSystem) = (entry, true)
            why = .handedToSystem(scheme: url.scheme, at: entry.location)
            decidedBy = RuleOrigin(index: -1, id: nil, location: entry.location)
        }
        record.decide(at: .schemeGate)
        return true
    }
}
