/// Step 0 of the verdict pipeline (docs/semantics.md): where a navigation may go. First what
/// the app's navigation delegate decides from `navigation:` — pages for the main frame,
/// frames for iframes, new windows — then what WebKit itself refuses under App-Bound Domains
/// (`WebPageProxy::decidePolicyForNavigationAction` checks app-bound domains only after the
/// client's decision, and only when it did not cancel).
struct NavigationGate: Sendable {
    let rules: NavigationRules?
    let appBound: AppBoundDomains?
    /// What WebKit keeps of each `appBound` entry (`AppBoundDomains.boundValues`).
    let bound: [String?]

    init(rules: NavigationRules?, appBound: AppBoundDomains?, suffixes: PublicSuffixList) {
        self.rules = rules
        self.appBound = appBound
        bound = appBound?.boundValues(suffixes) ?? []
    }

    var isEmpty: Bool { rules == nil && appBound == nil }

    /// What the gate says of one load.
    enum Outcome {
        /// Not a navigation the gate speaks of, or one it lets through without naming an entry;
        /// `appBound`: what WebKit's check found, when it ran.
        case passes(appBound: AppBoundCheck?)
        /// An entry of `pages` or `frames` admits it.
        case admitted(NavigationRules.Entry, section: String, appBound: AppBoundCheck?)
        /// The delegate cancels it and hands the URL to the system (`navigation.otherwise` or
        /// `new-windows: open-externally`, for a link the user activated).
        case handedToSystem(Why, at: SourceLocation?)
        case refused(Why, at: SourceLocation?)
    }

    /// `mainFrame`: a top-level navigation (a page, a top-document, a same-view new window).
    /// `handedOffByScheme`: the scheme gate hands it to the system or refuses it, so the
    /// delegate cancels it before WebKit's app-bound check.
    func decide(_ url: CanonicalURL, mainFrame: Bool, newWindow: Bool, by: NavigationInitiator, handedOffByScheme: Bool, domain: (String) -> String) -> Outcome {
        var admitted: (entry: NavigationRules.Entry, section: String)?
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
                    admitted = (entry, rules.pages.contains(entry) ? "pages" : "frames")
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
        var check: AppBoundCheck?
        if let appBound, mainFrame, !handedOffByScheme {
            check = AppBoundDomains.check(url, bound: bound, domain: domain)
            if appBound.limitNavigations, check == .unbound {
                let web = url.scheme == "http" || url.scheme == "https"
                return .refused(.appBoundRefused(host: web ? (url.host ?? "") : url.scheme + ":", at: appBound.location), at: appBound.location)
            }
        }
        if let admitted { return .admitted(admitted.entry, section: admitted.section, appBound: check) }
        return .passes(appBound: check)
    }
}
