/// Step 0 (docs/semantics.md): what the app's navigation delegate decides from `navigation:` —
/// pages for the main frame, frames for iframes, new windows — before WebKit's own App-Bound
/// Domains check (`AppBoundStep`), which runs only when the delegate did not cancel
/// (`WebPageProxy::decidePolicyForNavigationAction`).
struct NavigationStep: Sendable {
    let rules: NavigationRules?
    /// `rules != nil`, kept: testing the optional copies the rules on every request.
    let isActive: Bool

    init(rules: NavigationRules?) {
        self.rules = rules
        isActive = rules != nil
    }

    /// A navigation as the delegate sees it.
    struct Target {
        /// A top-level navigation: a page, a top-document, a new window.
        var mainFrame: Bool
        var newWindow: Bool
        var by: NavigationInitiator

        /// The navigation `request` is, or nil for a subresource (which goes where its page
        /// sends it). A view's first page is the app's own load; a later one a link, unless the
        /// trace says how it started.
        init?(_ request: LoadRequest, isFirstPage: Bool) {
            newWindow = request.resourceType == .popup
            mainFrame = request.kind != .resource || newWindow
            guard mainFrame || request.resourceType == .childDocument else { return nil }
            by = request.initiator ?? (isFirstPage ? .app : .link)
        }
    }

    enum Outcome {
        /// Not a web document the section speaks of (the scheme gate decides it), or no
        /// `navigation:` at all.
        case passes
        /// An entry of `pages` or `frames` admits it (the entry written at `location`).
        case admitted(at: SourceLocation?, section: String, described: String)
        /// The delegate cancels it and hands the URL to the system (`navigation.otherwise` or
        /// `new-windows: open-externally`, for a link the user activated).
        case handedToSystem(Why, at: SourceLocation?)
        case refused(Why, at: SourceLocation?)
    }

    func decide(_ url: CanonicalURL, _ target: Target, bindings: HostBindings) -> Outcome {
        guard let rules else { return .passes }
        if target.newWindow {
            let at = rules.newWindowsLocation ?? rules.location
            switch rules.newWindows {
            case .block:
                return .refused(.newWindowRefused(rules.newWindows, by: target.by, at: at), at: at)
            case .openExternally:
                return target.by.isUserActivated
                    ? .handedToSystem(.newWindowOpenedExternally(at: at), at: at)
                    : .refused(.newWindowRefused(rules.newWindows, by: target.by, at: at), at: at)
            case .sameView:
                break
            }
        }
        // Web documents only: the app's own schemes, about:, data: and the scheme allowlist
        // keep their meaning (the scheme gate decides them) — a page the app serves on its own
        // scheme is admitted by name when `pages` lists the scheme, and the gate still serves it.
        guard WebKitSchemes.web.contains(url.scheme) else {
            guard let page = rules.pageSchemes.first(where: { $0.scheme == url.scheme }) else { return .passes }
            return .admitted(at: page.location, section: "pages", described: page.described)
        }
        let candidates = target.mainFrame ? rules.pages : rules.pages + rules.frames
        if let entry = candidates.first(where: { $0.admits(url, bindings: bindings) }) {
            return .admitted(at: entry.location, section: rules.pages.contains(entry) ? "pages" : "frames", described: entry.described(in: bindings))
        }
        // Roles nothing is bound to: the reason says so, as they admit nothing.
        var unbound: [String] = []
        for role in candidates.compactMap(\.host.role) where bindings[role] == nil && !unbound.contains(role) { unbound.append(role) }
        guard target.mainFrame else {
            return .refused(.navigationOutside("frames", by: target.by, openedExternally: false, at: rules.location, unbound: unbound), at: rules.location)
        }
        if target.by.isUserActivated && rules.otherwise == .openExternally {
            let at = rules.otherwiseLocation ?? rules.location
            return .handedToSystem(.navigationOutside("pages", by: target.by, openedExternally: true, at: at, unbound: unbound), at: at)
        }
        let at = target.by.isUserActivated ? (rules.otherwiseLocation ?? rules.location) : rules.location
        return .refused(.navigationOutside("pages", by: target.by, openedExternally: false, at: at, unbound: unbound), at: at)
    }

    /// A new window that loads in the same view becomes the view's page, as a `page` does.
    func replacesPage(_ request: LoadRequest) -> Bool {
        request.resourceType == .popup && isActive && rules?.newWindows == .sameView
    }
}
