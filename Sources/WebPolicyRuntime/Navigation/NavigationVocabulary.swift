/// How a navigation started — what a trace's `by=` says and what an app reads off
/// `WKNavigationAction.navigationType` (docs/trace-format.md). Only a navigation the user
/// started by activating a link is ever opened outside the app: a page must not be able to
/// send the user away by itself.
public enum NavigationInitiator: String, CaseIterable, Sendable {
    /// The user activated a link (`WKNavigationType.linkActivated`).
    case link
    /// A script set `location` or called `window.open` (`.other`).
    case script
    /// A server redirect of a navigation under way (`.other`).
    case redirect
    /// A form was submitted (`.formSubmitted`, `.formResubmitted`).
    case form
    /// The back or forward list, or a reload (`.backForward`, `.reload`).
    case backForward = "back-forward"
    /// The app's own `load(_:)`: a trace's first page.
    case app

    /// Whether the user asked for this navigation, so it may leave the app.
    public var isUserActivated: Bool { self == .link }

    /// Who or what started it, for reasons: "a script started it".
    public var startedBy: String {
        switch self {
        case .link: return "a link"
        case .script: return "a script"
        case .redirect: return "a redirect"
        case .form: return "a form"
        case .backForward: return "the back-forward list"
        case .app: return "the app's own load"
        }
    }
}

/// `navigation.otherwise`: what happens to a link the user activates that leads outside the
/// pages the view may show.
public enum NavigationOtherwise: String, CaseIterable, Sendable {
    /// Cancel it in the view and hand the URL to the system (Safari).
    case openExternally = "open-externally"
    /// Cancel it.
    case block
}

/// `navigation.new-windows`: what `target=_blank` and `window.open` do.
public enum NewWindowPolicy: String, CaseIterable, Sendable {
    /// Load the URL in the same view, as a navigation of it; never a second web view.
    case sameView = "same-view"
    /// Hand a link the user activated to the system; refuse the rest.
    case openExternally = "open-externally"
    /// Refuse every new window.
    case block
}
