/// What `webview:` decides for the app while the view runs: permission requests, the web
/// extensions it may load, the store it keeps data in.
extension RuntimePolicy {
    /// Whether WebKit may ask the user for `kinds` on behalf of a frame, as simulate decides a
    /// `permission` line: `allow` is `WKPermissionDecision.prompt` (the user decides), `block`
    /// is `.deny` (refused without asking). `frameOrigin` is the requesting frame's security
    /// origin or document URL (`WKFrameInfo.securityOrigin`), `isMainFrame` its `isMainFrame`.
    /// An origin that does not parse is refused: a policy fails closed.
    public func decidePermission(_ kinds: [PermissionKind], frameOrigin: String, isMainFrame: Bool = true) -> RuntimeDecision {
        guard let url = try? CanonicalURL.parse(frameOrigin).get() else {
            return RuntimeDecision(verdict: .block, finalURL: frameOrigin, cookies: [],
                                   reason: "the frame's origin '\(frameOrigin)' does not parse, so no permission is asked for it", actions: [], decision: nil)
        }
        let request = PermissionRequest(kinds: kinds, frameURL: url, frame: isMainFrame ? .main : .child)
        return RuntimeDecision(engine.decide(request, bindings: bindings), engine: engine)
    }

    /// Whether the app may load the web extension `name` into the view: `webview.web-extensions`
    /// lists it; with `none`, no extension; a policy that says nothing leaves it to the app.
    public func allowsWebExtension(named name: String) -> Bool {
        guard let listed = manifest.webView?.webExtensions else { return true }
        return listed.contains(name)
    }

    /// Whether the view has a web extension controller at all: not with `web-extensions: none`.
    public var allowsWebExtensions: Bool { manifest.webView?.webExtensions?.isEmpty != true }

    /// The data store `webview.data-store` asks for; nil: the app's own choice.
    public var dataStore: WebsiteDataStoreChoice? { manifest.webView?.dataStore }
}
