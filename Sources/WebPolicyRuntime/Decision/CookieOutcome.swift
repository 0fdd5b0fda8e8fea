/// What happened to one of the policy's cookies on one request: sent, or the one condition
/// (checked in the order `DecisionEngine` checks them) that kept it back.
public enum CookieOutcome: Sendable, Equatable {
    case sent
    /// The load never reaches the network: blocked, or served by the app.
    case notReached(Verdict)
    /// The view never loads it: the URL is handed to the system to open outside the app (a
    /// scheme on the scheme-allowlist, or navigation's `otherwise` and `new-windows`).
    case handedOff
    /// A `block-cookies` content rule acts on the load.
    case blockCookies
    /// Cookies go with http(s) and ws(s) loads only.
    case notHTTP(scheme: String)
    /// RFC 6265 §5.1.3: the request's host does not domain-match the cookie.
    case domain(host: String)
    /// The cookie's domain is a `runtime-hosts` role that nothing is bound to.
    case roleUnbound(String)
    /// RFC 6265 §5.1.4: the request's path does not path-match the cookie's.
    case path(String)
    /// RFC 6265 §5.4: a Secure cookie goes over https and wss only.
    case secure(scheme: String)
    /// `max-age` of zero or less: the cookie is deleted as it is set.
    case expired
    /// RFC 6265bis: a cross-site load that the cookie's SameSite keeps it from.
    case sameSite(SameSite)
    /// How the app delivers it (seed 001): a `Cookie` header goes with the first page's
    /// request only, a `document.cookie` script runs after the first document has loaded.
    case delivery(CookieDelivery)

    /// Why the cookie is not sent, for a person; nil when it is.
    public func reason(for cookie: Manifest.Cookie) -> String? {
        switch self {
        case .sent: return nil
        case .notReached(let verdict): return "the load does not reach the network (\(verdict.rawValue))"
        case .handedOff: return "the view never loads it: the URL is handed to the system, which opens it outside the app"
        case .blockCookies: return "a block-cookies content rule acts on the load"
        case .notHTTP(let scheme): return "cookies go with http(s) loads, and this is \(scheme):"
        case .domain(let host):
            return cookie.hostOnly ? "its host \(cookie.domain) is not \(host) (host-only)" : "its domain \(cookie.domain) does not cover \(host)"
        case .roleUnbound(let role): return "its domain is ${\(role)}, which is bound to no host"
        case .path(let path): return "its path \(cookie.path) does not cover \(path)"
        case .secure(let scheme): return "it is secure, and this load is \(scheme)"
        case .expired: return "its max-age \(cookie.maxAge ?? 0) deletes it"
        case .sameSite(let sameSite):
            return sameSite == .strict ? "it is same-site strict, and the load is third-party" : "it is same-site lax, and the load is third-party and not a top-level GET navigation"
        case .delivery(let via):
            return via == .header ? "it is delivered as a Cookie header, which goes with the first page's request only"
                : "it is set by document.cookie, which runs once the first document has loaded"
        }
    }
}
