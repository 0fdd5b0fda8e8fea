#if canImport(WebKit)
import WebKit
import WebPolicyRuntime

/// `WKHTTPCookieStore` as a `CookieSetting`: returns when `setCookie`'s completion fires.
public struct WebKitCookieStore: CookieSetting, @unchecked Sendable {
    public let store: WKHTTPCookieStore

    public init(_ store: WKHTTPCookieStore) {
        self.store = store
    }

    @MainActor public func setCookie(_ cookie: CookieToInstall) async {
        guard let httpCookie = HTTPCookie(properties: Self.properties(of: HTTPCookieAttributes(cookie, now: Date()))) else { return }
        await withCheckedContinuation { continuation in
            store.setCookie(httpCookie) { continuation.resume() }
        }
    }

    /// Each attribute to its key. `HTTPCookie(properties:)` needs name, value, path and domain
    /// (ios-domain.md §4.5); HttpOnly has no public key, so the undocumented "HttpOnly" key
    /// everyone uses.
    static func properties(of cookie: HTTPCookieAttributes) -> [HTTPCookiePropertyKey: Any] {
        var properties: [HTTPCookiePropertyKey: Any] = [.name: cookie.name, .value: cookie.value, .path: cookie.path, .domain: cookie.domain]
        if cookie.secure { properties[.secure] = "TRUE" }
        if cookie.httpOnly { properties[HTTPCookiePropertyKey("HttpOnly")] = "TRUE" }
        if let sameSite = cookie.sameSite, #available(iOS 13.0, macOS 10.15, *) {
            properties[.sameSitePolicy] = sameSite == .strict ? HTTPCookieStringPolicy.sameSiteStrict : sameSite == .lax ? .sameSiteLax : nil
        }
        if let maximumAge = cookie.maximumAge { properties[.maximumAge] = maximumAge }
        if let expires = cookie.expires { properties[.expires] = expires }
        return properties
    }
}

extension CookieInstaller {
    /// The document-start user script for `document-cookie` cookies, main frame only.
    public func documentCookieUserScript() throws -> WKUserScript? {
        try documentCookieScript().map { WKUserScript(source: $0, injectionTime: .atDocumentStart, forMainFrameOnly: true) }
    }

    /// `request` with the `header` cookies for the web view's first load.
    public func firstRequest(_ request: URLRequest) throws -> URLRequest {
        guard let url = request.url?.absoluteString, let header = try firstRequestHeader(for: url) else { return request }
        var request = request
        let existing = request.value(forHTTPHeaderField: "Cookie")
        request.setValue(existing.map { $0 + "; " + header } ?? header, forHTTPHeaderField: "Cookie")
        return request
    }
}
#endif
