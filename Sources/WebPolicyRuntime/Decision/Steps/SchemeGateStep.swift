/// Step 2 (docs/semantics.md): the scheme gate, on the URL the load continues with — what
/// the app's navigation delegate and ATS let through (seed 000's `shouldAllowHttpRequest` and
/// `shouldAllowScheme`). https and wss pass; plain http and ws only to hosts on the
/// http-allowlist; about:, data: and blob: are WebKit's own; any other scheme is the app's to
/// serve (`interception:`), to hand to the system (`scheme-allowlist:`), or refused.
struct SchemeGateStep: Sendable {
    let httpAllowlist: [Manifest.HTTPAllowlistEntry]
    let schemeAllowlist: [Manifest.SchemeAllowlistEntry]
    let interception: InterceptionStep

    enum Outcome {
        /// Through, with the reason when the gate is what lets it through: a secure scheme, an
        /// allowlisted host (with its entry), one of WebKit's own schemes.
        case passes(Why?, entry: SourceLocation?)
        case refused(Why)
        /// An app's own scheme that an interception rule serves.
        case served(Manifest.Interception)
        case handedToSystem(Manifest.SchemeAllowlistEntry)
    }

    func decide(_ url: CanonicalURL, method: String?) -> Outcome {
        switch url.scheme {
        case "https", "wss":
            return .passes(.secureScheme(url.scheme), entry: nil)
        case "http", "ws":
            guard let entry = allowlistEntry(for: url) else { return .refused(.insecureNotAllowlisted(scheme: url.scheme, host: url.host)) }
            return .passes(.allowlisted(host: url.host ?? "", at: entry.location), entry: entry.location)
        case _ where WebKitSchemes.local.contains(url.scheme):
            return .passes(.webKitScheme(url.scheme), entry: nil)
        default:
            if let handler = interception.rule(for: url, method: method) { return .served(handler) }
            guard let allowed = schemeEntry(for: url) else { return .refused(.schemeNotAllowed(scheme: url.scheme, entries: schemeMisses(for: url))) }
            return .handedToSystem(allowed)
        }
    }

    /// Whether the gate lets an http(s) or ws(s) URL through: the app's
    /// `shouldAllowHttpRequest`. false for other schemes.
    func allowsWebRequest(_ url: CanonicalURL) -> Bool {
        switch url.scheme {
        case "https", "wss": return true
        case "http", "ws": return allowlistEntry(for: url) != nil
        default: return false
        }
    }

    /// Whether the delegate cancels a navigation to `url` before WebKit's App-Bound Domains
    /// check: a scheme that is neither the web's, one WebKit binds anyway, nor one the app
    /// serves is handed to the system or refused by this gate.
    func delegateCancels(_ url: CanonicalURL, method: String?) -> Bool {
        !WebKitSchemes.delegateKeeps(url.scheme) && interception.rule(for: url, method: method) == nil
    }

    /// The http-allowlist entry that admits a plain http or ws URL's host.
    func allowlistEntry(for url: CanonicalURL) -> Manifest.HTTPAllowlistEntry? {
        httpAllowlist.first { $0.host.matches(url.host ?? "") }
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
