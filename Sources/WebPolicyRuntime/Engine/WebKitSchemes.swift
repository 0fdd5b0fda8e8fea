/// The one list of what WebKit does with a URL scheme by itself, each set with its source. The
/// decision pipeline, the App-Bound Domains check and the scheme-handler registration all read
/// it here, so no two places can disagree about a scheme.
public enum WebKitSchemes {
    /// The web's own schemes: WebKit loads them itself and lets no app handler take them.
    public static let web: Set<String> = ["http", "https"]

    /// Schemes whose documents WebKit makes itself, with no network, no handler of the app's
    /// and nothing for the scheme allowlist to decide: `about:blank`, `data:` and `blob:` URLs
    /// (`DocumentLoader::maybeLoadEmpty`, `ResourceLoader` for data and blob URLs). The scheme
    /// gate passes them.
    public static let local: Set<String> = ["about", "data", "blob"]

    /// What WebKit treats as app-bound in the main frame whatever `WKAppBoundDomains` says
    /// (`WebPageProxy::shouldTreatURLProtocolAsAppBound`: about:, data:, blob:, file:,
    /// javascript:, besides localhost and loopback addresses). The app's navigation delegate
    /// lets these through as it does the web's, so they reach WebKit's own check.
    public static let alwaysAppBound: Set<String> = ["about", "data", "blob", "file", "javascript"]

    /// WebKit's built-in schemes on iOS, http and https aside, for which
    /// `-[WKWebViewConfiguration setURLSchemeHandler:forURLScheme:]` raises
    /// `NSInvalidArgumentException` (`+[WKWebView handlesURLScheme:]`, `WKWebViewConfiguration.mm`):
    /// `LegacySchemeRegistry::allBuiltinSchemes` plus `URLParser::isSpecialScheme`.
    public static let builtin: Set<String> = [
        "about", "applewebdata", "blob", "data", "file", "ftp", "javascript", "ws", "wss",
        "webkit-fake-url", "x-apple-ql-id", "x-apple-content-filter", "safari-extension",
    ]

    /// Whether an app may register a scheme handler for `scheme`.
    public static func acceptsHandler(for scheme: String) -> Bool {
        let scheme = scheme.lowercased()
        return !builtin.contains(scheme) && !web.contains(scheme)
    }

    /// Whether the app's navigation delegate keeps a navigation to `scheme` in the view without
    /// asking the scheme allowlist: the web's schemes and those WebKit binds to the app anyway.
    static func delegateKeeps(_ scheme: String) -> Bool { web.contains(scheme) || alwaysAppBound.contains(scheme) }
}
