/// A load the app asks about, in the words of the trace format (docs/trace-format.md), so a
/// line of a trace and a question from the app are the same thing.
public struct RuntimeRequest: Sendable, Hashable {
    public var url: String
    /// `page`, `top-document`, `child-document`, `image`, `script`, … (`RuntimeRequest.types`).
    public var type: String
    /// The page the load belongs to. For a navigation (`page`, `top-document`): the page the
    /// web view shows before it, if any (`webView.url`). nil: the view has shown nothing yet.
    public var mainDocumentURL: String?
    /// The frame that makes the load, when it is not the main frame.
    public var frameURL: String?
    public var method: String
    /// How a navigation started (`WKNavigationAction.navigationType`, as `NavigationInitiator`
    /// reads it); nil: a link, or the app's own load for a view's first page.
    public var initiator: NavigationInitiator?

    public init(url: String, type: String, mainDocumentURL: String? = nil, frameURL: String? = nil, method: String = "GET", initiator: NavigationInitiator? = nil) {
        self.url = url
        self.type = type
        self.mainDocumentURL = mainDocumentURL
        self.frameURL = frameURL
        self.method = method
        self.initiator = initiator
    }

    /// Every `type` the runtime knows.
    public static var types: [String] { LoadKind.types.keys.sorted() }
}

/// The verdict for one load, with what simulate reports for it.
public struct RuntimeDecision: Sendable {
    public var verdict: Verdict
    /// The URL the load continues with: upgraded by `make-https`, canonical as WebKit makes it.
    public var finalURL: String
    /// Names of the policy's cookies the request carries.
    public var cookies: [String]
    /// Why, in words (as `simulate --verbose` says it).
    public var reason: String
    /// The WebKit content-rule actions that act on the load, in the order block,
    /// block-cookies, css-display-none, make-https, notify.
    public var actions: [ContentActionType]
    /// The interception rule that serves the load (`verdict == .intercept`).
    public var interception: Manifest.Interception?
    /// The scheme-allowlist entry that hands the URL to the system (`UIApplication.open`):
    /// the web view cancels the navigation and the app opens the URL.
    public var handedToSystem: Manifest.SchemeAllowlistEntry?
    /// Whether the view hands the URL to the system: by the scheme allowlist, or a link the
    /// user activated outside `navigation.pages` (`otherwise: open-externally`).
    public var isHandedToSystem: Bool { decision?.isHandedToSystem ?? false }
    /// The engine's whole decision (matched rules, hidden selectors, notifications).
    public var decision: Decision?
}
