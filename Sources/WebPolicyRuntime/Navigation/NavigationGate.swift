/// Step 0 of the verdict pipeline (docs/semantics.md): where a navigation may go. First what
/// the app's navigation delegate decides from `navigation:` — pages for the main frame,
/// frames for iframes, new windows — then what WebKit itself refuses under App-Bound Domains
/// (`WebPageProxy::decidePolicyForNavigationAction` checks app-bound domains only after the
/// client's decision, and only when it did not cancel).
struct NavigationGate: Sendable {
    let rules: NavigationRules?
    let appBound: AppBoundDomains?
    /// `appBound` as WebKit keeps it: registrable domains and schemes.
    let bound: (domains: Set<String>, schemes: Set<String>)

    init(rules: NavigationRules?, appBound: AppBoundDomains?, suffixes: PublicSuffixList) {
        self.rules = rules
        self.appBound = appBound
        bound = appBound?.bound(suffixes) ?? ([], [])
    }

    var isEmpty: Bool { rules == nil && appBound == nil }

    /// What the gate says of one load.
    enum Outcome {
        /// Not a navigation the gate speaks of, or one it lets through without naming an entry.
        case passes
        /// An entry of `pages` or `frames` admits it.
        case admitted(NavigationRules.Entry, section: String)
        /// The delegate cancels it and hands the URL to the system (`navigation.otherwise` or
        /// `new-windows: open-externally`, for a link the user activated).
        case handedToSystem(Why, at: SourceLocation?)
        case refused(Why, at: SourceLocation?)
    }

    /// `mainFrame`: a top-level navigation (a page, a top-document, a same-view new window).
    /// `handedOffByScheme`: the scheme allowlist hands it to the system, so the delegate
    /// cancels it before WebKit's app-bound check.
    func decide(_ url: CanonicalURL, mainFrame: Bool, newWindow: Bool, by: NavigationInitiator, handedOffByScheme: Bool, domain: (String) -> String) -> Outcome {
        var outcome = Outcome.passes
        if let rules {
            if newWindow {
                let at = rules.newWindowsLocation ?? rules.location
                switch rules.newWindows {
                case .block:
                    return .refused(.newWindowRefused(rules.newWindows, by: by, at: at), at: at)
                case .openExternally:
                    return by.isUserActivated
                        ? .handedToSystem(.newWindowOpenedExternally(at: at), at: at)
                        : .refused(.newWindowRefused(rules.newWindows, by: by, at: at), at: at)
                case .sameView:
                    break
                }
            }
            // Web documents only: the app's own schemes, about:, data: and the scheme
            // allowlist keep their meaning (the scheme gate decides them).
            if url.scheme == "http" || url.scheme == "https" {
                let candidates = mainFrame ? rules.pages : rules.pages + rules.frames
                if let entry = candidates.first(where: { $0.admits(url) }) {
                    let inPages = rules.pages.contains(entry)
                    outcome = .admitted(entry, section: inPages ? "pages" : "frames")
                } else if mainFrame {
                    if by.isUserActivated && rules.otherwise == .openExternally {
                        let at = rules.otherwiseLocation ?? rules.location
                        return .handedToSystem(.navigationOutside("pages", by: by, openedExternally: true, at: at), at: at)
                    }
                    let at = by.isUserActivated ? (rules.otherwiseLocation ?? rules.location) : rules.location
                    return .refused(.navigationOutside("pages", by: by, openedExternally: false, at: at), at: at)
                } else {
                    return .refused(.navigationOutside("frames", by: by, openedExternally: false, at: rules.location), at: rules.location)
                }
            }
        }
        // WebKit refuses a main-frame navigation away from the app-bound domains
        // (`WebPageProxy::setIsNavigatingToAppBoundDomainAndCheckIfPermitted`); an iframe
        // loads, in a page that is no longer app-bound.
        if let appBound, appBound.limitNavigations, mainFrame, !handedOffByScheme, !isAppBound(url, domain: domain) {
            let web = url.scheme == "http" || url.scheme == "https"
            return .refused(.appBoundRefused(host: web ? (url.host ?? "") : url.scheme + ":", at: appBound.location), at: appBound.location)
        }
        return outcome
    }

    /// `schemeOrDomainIsAppBound`, with what WebKit treats as app-bound in the main frame
    /// whatever the list says (`shouldTreatURLProtocolAsAppBound`: localhost and loopback
    /// addresses, about:, data:, blob:, file:, javascript:).
    private func isAppBound(_ url: CanonicalURL, domain: (String) -> String) -> Bool {
        if ["about", "data", "blob", "file", "javascript"].contains(url.scheme) { return true }
        if let host = url.host, host == "localhost" || host.hasSuffix(".localhost") || host == "127.0.0.1" || host == "[::1]" || host.hasPrefix("127.") { return true }
        if bound.schemes.contains(url.scheme) { return true }
        guard let host = url.host else { return false }
        let registrable = domain(host)
        return bound.domains.contains(registrable.isEmpty ? host : registrable)
    }
}
