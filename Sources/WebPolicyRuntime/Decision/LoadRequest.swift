/// What a load is to the web view: a navigation that becomes the page, one that leaves the
/// page as it is, or a subresource or frame load.
public enum LoadKind: String, Sendable {
    /// A top-level navigation that becomes the document later loads belong to.
    case page
    /// A main-frame navigation that leaves the page as it is (a link to `mailto:`).
    case navigation
    /// A subresource or frame load.
    case resource

    /// The request types of the trace format (docs/trace-format.md) and the runtime API:
    /// WebKit's concrete resource types; `page` for a top-level load that becomes the top
    /// document; `document` or `top-document` for a main-frame navigation that does not;
    /// `child-document` for an iframe.
    public static let types: [String: (kind: LoadKind, type: ResourceType)] = {
        var types: [String: (kind: LoadKind, type: ResourceType)] = [
            "page": (.page, .topDocument),
            "document": (.navigation, .topDocument),
            "top-document": (.navigation, .topDocument),
            "child-document": (.resource, .childDocument),
        ]
        for type: ResourceType in [.image, .styleSheet, .script, .font, .svgDocument, .media, .popup, .ping, .fetch, .websocket, .other, .cspReport] {
            types[type.rawValue] = (.resource, type)
        }
        return types
    }()
}

/// One request as the decision engine sees it: a trace line, or a load the app asks about.
public struct LoadRequest: Sendable {
    public var kind: LoadKind
    /// The concrete type content rules see.
    public var resourceType: ResourceType
    public var url: CanonicalURL
    /// The page the load belongs to, when it is not the web view's current page.
    public var top: CanonicalURL?
    /// The frame that makes the load, when it is not the main frame.
    public var frame: CanonicalURL?
    /// As given (`POST`); nil means GET.
    public var method: String?
    /// How a navigation started; nil: a link, or — for the view's first page — the app.
    public var initiator: NavigationInitiator?

    public init(kind: LoadKind, resourceType: ResourceType, url: CanonicalURL, top: CanonicalURL? = nil, frame: CanonicalURL? = nil, method: String? = nil, initiator: NavigationInitiator? = nil) {
        self.kind = kind
        self.resourceType = resourceType
        self.url = url
        self.top = top
        self.frame = frame
        self.method = method
        self.initiator = initiator
    }
}

/// What later loads of a web view inherit from its pages: only a `page` load changes it.
public struct WebViewState: Sendable {
    /// The document the main frame shows.
    public var top: CanonicalURL?
    /// The method the current page was loaded with.
    public var pageMethod = "GET"
    /// Pages loaded so far (blocked ones included): a `Cookie` header goes on the first only,
    /// a `document.cookie` script runs from the second on.
    public var pagesLoaded = 0
    /// The page (and its method) before the navigation under way: where the view stays when
    /// a server redirect of that navigation is refused.
    private var beforeNavigation: (top: CanonicalURL?, method: String)?
    /// The `runtime-hosts` roles bound now: what `${role}` entries match.
    public var bindings = HostBindings()

    public init(top: CanonicalURL? = nil, pageMethod: String = "GET", pagesLoaded: Int = 0) {
        self.top = top
        self.pageMethod = pageMethod
        self.pagesLoaded = pagesLoaded
    }

    /// The state after `request` got `decision`: a page that loads becomes the shown document.
    /// A page the scheme allowlist hands to the system (`mailto:`, an app's deep link) never
    /// loads in the view: WebKit's navigation delegate cancels it and the system opens it
    /// (`WKNavigationActionPolicyCancel`, then `UIApplication.open`), so the view keeps
    /// showing what it showed, and nothing counts as loaded.
    ///
    /// A `redirect` continues the navigation on the line before it, which has not committed:
    /// refused (or handed to the system), the whole navigation fails and the view stays on
    /// the page it showed before that navigation began — WebKit decides a redirect before
    /// the provisional load commits (DocumentLoader::willSendRequest asks the policy
    /// checker, and an ignored redirect stops the load), as the conformance lane sees in
    /// WebKitGTK (ci/webkit-conformance/navigation_conformance.py).
    public mutating func advance(past request: LoadRequest, _ decision: Decision) {
        guard request.kind == .page || decision.replacesPage else { return }
        let isRedirect = request.kind == .page && request.initiator == .redirect
        if isRedirect, decision.verdict == .block || decision.isHandedToSystem {
            if let beforeNavigation {
                (top, pageMethod) = beforeNavigation
            }
            return
        }
        guard !decision.isHandedToSystem else { return }
        if !isRedirect {
            beforeNavigation = (top, pageMethod)
        }
        if decision.verdict != .block {
            top = decision.finalURL
            pageMethod = request.method?.uppercased() ?? "GET"
        }
        pagesLoaded += 1
    }
}
