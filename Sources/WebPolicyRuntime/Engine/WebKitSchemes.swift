/// Schemes WebKit handles itself, for which `-[WKWebViewConfiguration setURLSchemeHandler:forURLScheme:]`
/// raises `NSInvalidArgumentException` (`+[WKWebView handlesURLScheme:]`, `WKWebViewConfiguration.mm`).
public enum WebKitSchemes {
    /// WebKit's built-in schemes on iOS, http and https aside:
    /// `LegacySchemeRegistry::allBuiltinSchemes` plus `URLParser::isSpecialScheme`.
    public static let builtin: Set<String> = [
        "about", "applewebdata", "blob", "data", "file", "ftp", "javascript", "ws", "wss",
        "webkit-fake-url", "x-apple-ql-id", "x-apple-content-filter", "safari-extension",
    ]

    /// The web's own schemes: WebKit loads them itself and lets no app handler take them.
    public static let web: Set<String> = ["http", "https"]

    /// Whether an app may register a scheme handler for `scheme`.
    public static func acceptsHandler(for scheme: String) -> Bool {
        let scheme = scheme.lowercased()
        return !builtin.contains(scheme) && !web.contains(scheme)
    }
}
