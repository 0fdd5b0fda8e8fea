/// Step 0, continued: WebKit refuses a main-frame navigation away from the app-bound domains
/// (`WebPageProxy::setIsNavigatingToAppBoundDomainAndCheckIfPermitted`) once the app's
/// delegate has let it through; an iframe loads, in a page that is no longer app-bound.
struct AppBoundStep: Sendable {
    let domains: AppBoundDomains?
    /// What WebKit keeps of each entry (`AppBoundDomains.boundValues`).
    let bound: [String?]
    /// `domains != nil`, kept: testing the optional copies the entries on every request.
    let isActive: Bool

    init(domains: AppBoundDomains?, suffixes: PublicSuffixList) {
        self.domains = domains
        bound = domains?.boundValues(suffixes) ?? []
        isActive = domains != nil
    }

    enum Outcome {
        case checked(AppBoundCheck)
        case refused(Why, at: SourceLocation?)
    }

    /// For a main-frame navigation the delegate kept in the view; nil when there is nothing
    /// to check (no `app-bound-domains:`).
    func decide(_ url: CanonicalURL, domain: (String) -> String) -> Outcome? {
        guard let domains else { return nil }
        let check = AppBoundDomains.check(url, bound: bound, domain: domain)
        if domains.limitNavigations, check == .unbound {
            let web = WebKitSchemes.web.contains(url.scheme)
            return .refused(.appBoundRefused(host: web ? (url.host ?? "") : url.scheme + ":", at: domains.location), at: domains.location)
        }
        return .checked(check)
    }
}
