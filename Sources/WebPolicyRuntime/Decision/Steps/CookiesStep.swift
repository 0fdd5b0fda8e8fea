/// Step 4 (docs/semantics.md): the policy's cookies a load that reaches the network carries.
/// RFC 6265 domain and path matching, `Secure`, SameSite for cross-site loads, and how the app
/// delivers the cookie (seed 001): the cookie store from the start; a `Cookie` header on the
/// first top-level request only; `document.cookie` from a script that runs once the first
/// document has loaded, so not on that document's own request.
struct CookiesStep: Sendable {
    let cookies: [Manifest.Cookie]

    /// Where in the view's life a load happens: what the delivery conditions read.
    struct Moment {
        var isNavigation: Bool
        var isFirstPage: Bool
        var pagesLoaded: Int
        /// The roles bound now: a cookie whose domain is `${role}` goes to the bound host.
        var bindings: HostBindings

        init(_ request: LoadRequest, in state: WebViewState) {
            isNavigation = request.kind != .resource
            isFirstPage = request.kind == .page && state.pagesLoaded == 0
            pagesLoaded = state.pagesLoaded
            bindings = state.bindings
        }
    }

    /// The names of the cookies sent with a load to `url`.
    func sent(to url: CanonicalURL, _ load: ContentLoad, _ moment: Moment) -> [String] {
        cookies.filter { Self.outcome($0, url: url, load: load, moment) == .sent }.map(\.name)
    }

    /// Each cookie with what happened to it on a load the record says reached this step or
    /// stopped before it: the one place the conditions are written, for the verdict and for
    /// its explanation alike.
    func outcomes(of decision: Decision, _ load: ContentLoad, _ moment: Moment) -> [(cookie: Manifest.Cookie, outcome: CookieOutcome)] {
        cookies.map { cookie in
            let outcome: CookieOutcome
            if decision.isHandedToSystem {
                // Any hand-off, the scheme gate's or navigation's: the view loads nothing.
                outcome = .handedOff
            } else if !decision.record.ran(.cookies) {
                outcome = .notReached(decision.verdict)
            } else if decision.content.has(.blockCookies) {
                outcome = .blockCookies
            } else {
                outcome = Self.outcome(cookie, url: decision.finalURL, load: load, moment)
            }
            return (cookie, outcome)
        }
    }

    /// The first condition that keeps `cookie` from a load to `url`, or `.sent`.
    private static func outcome(_ cookie: Manifest.Cookie, url: CanonicalURL, load: ContentLoad, _ moment: Moment) -> CookieOutcome {
        guard let host = url.host, url.scheme == "https" || url.scheme == "http" || url.scheme == "wss" || url.scheme == "ws" else { return .notHTTP(scheme: url.scheme) }
        var domain = Substring(cookie.domain.lowercased().drop { $0 == "." })
        if let role = HostScope.roleName(cookie.domain) {
            // The app sets the cookie on the host it binds the role to, and none while unbound.
            guard let bound = moment.bindings[role] else { return .roleUnbound(role) }
            domain = Substring(bound.host)
        }
        let domainMatches = cookie.hostOnly ? host == domain : (host == domain || host.hasSuffix("." + domain))
        guard domainMatches else { return .domain(host: host) }
        let path = cookie.path
        guard url.path == path || (url.path.hasPrefix(path) && (path.hasSuffix("/") || url.path.dropFirst(path.count).hasPrefix("/"))) else { return .path(url.path) }
        if cookie.secure, url.scheme != "https" && url.scheme != "wss" { return .secure(scheme: url.scheme) }
        if let maxAge = cookie.maxAge, maxAge <= 0 { return .expired }
        if load.isThirdParty {
            switch cookie.sameSite {
            case .strict: return .sameSite(.strict)
            case .lax: if !(moment.isNavigation && (load.method ?? .get) == .get) { return .sameSite(.lax) }
            case .none?, nil: break
            }
        }
        switch cookie.via {
        case .cookieStore: return .sent
        case .header: return moment.isFirstPage ? .sent : .delivery(.header)
        case .documentCookie: return moment.pagesLoaded > 0 ? .sent : .delivery(.documentCookie)
        }
    }
}
