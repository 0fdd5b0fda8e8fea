import Foundation
import WebPolicyRuntime

/// Values for `${NAME}` placeholders in cookie values (a session token from the app's
/// keychain, a locale): the app supplies them at run time, the policy never holds secrets.
public protocol CookieValueSource: Sendable {
    func value(for placeholder: String) -> String?
}

/// A dictionary of placeholder values.
public struct CookieValues: CookieValueSource {
    public var values: [String: String]
    public init(_ values: [String: String]) { self.values = values }
    public func value(for placeholder: String) -> String? { values[placeholder] }
}

/// One cookie ready to install, with its placeholders filled.
public struct CookieToInstall: Sendable, Equatable {
    public var name: String
    public var value: String
    public var domain: String
    public var path: String
    public var hostOnly: Bool
    public var secure: Bool
    public var httpOnly: Bool
    public var sameSite: SameSite?
    public var maxAge: Int?
    /// An RFC 3339 timestamp, as written in the policy (`CookieDate` reads it).
    public var expires: String?
    public var via: CookieDelivery
}

/// Something that sets cookies with a completion: `WKHTTPCookieStore` in an app.
public protocol CookieSetting: Sendable {
    /// Returns once the store calls its completion: a cookie set without waiting for it may
    /// be missing from the first request (ios-domain.md: `setCookie` is asynchronous and
    /// WebKit's network process reads the store when the load starts).
    func setCookie(_ cookie: CookieToInstall) async
}

public enum CookieInstallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `${NAME}` the value source does not know.
    case missingValue(cookie: String, placeholder: String)

    public var description: String {
        switch self {
        case .missingValue(let cookie, let placeholder): return "cookie \(cookie) needs a value for ${\(placeholder)}, which the app did not supply"
        }
    }
}

/// The policy's cookies in their three delivery modes (seed 001, "cookies in WKWebView"):
/// `cookie-store` through `WKHTTPCookieStore` before the first load, `header` as a `Cookie`
/// header on the first request only, `document-cookie` from a user script at document start.
public struct CookieInstaller: Sendable {
    public let policy: RuntimePolicy
    public let values: CookieValueSource

    public init(policy: RuntimePolicy, values: CookieValueSource) {
        self.policy = policy
        self.values = values
    }

    /// Every cookie with its placeholders filled; a missing value is an error naming it. A
    /// cookie whose domain is a `runtime-hosts` role (`${server}`) is for the host the role is
    /// bound to now, and left out while it is unbound: install again after `policy.bind`.
    public func cookies() throws(CookieInstallError) -> [CookieToInstall] {
        let bindings = policy.bindings
        var cookies: [CookieToInstall] = []
        for cookie in policy.manifest.cookies {
            var domain = cookie.domain
            if let role = HostScope.roleName(cookie.domain) {
                guard let bound = bindings[role] else { continue }
                domain = bound.host
            }
            cookies.append(CookieToInstall(name: cookie.name, value: try fill(cookie.value, of: cookie.name), domain: domain, path: cookie.path,
                                           hostOnly: cookie.hostOnly, secure: cookie.secure, httpOnly: cookie.httpOnly, sameSite: cookie.sameSite,
                                           maxAge: cookie.maxAge, expires: cookie.expires, via: cookie.via))
        }
        return cookies
    }

    /// Sets the `cookie-store` cookies, returning when every completion has fired.
    public func installInStore(_ store: CookieSetting) async throws(CookieInstallError) {
        let cookies = try cookies().filter { $0.via == .cookieStore }
        for cookie in cookies { await store.setCookie(cookie) }
    }

    /// The `Cookie` header for the web view's first request to `url`: the `header` cookies
    /// the engine says that request carries (domain, path, Secure, expiry as simulate
    /// decides them); nil when there are none.
    public func firstRequestHeader(for url: String) throws(CookieInstallError) -> String? {
        let sent = Set(policy.evaluate(RuntimeRequest(url: url, type: "page")).cookies)
        let pairs = try cookies().filter { $0.via == .header && sent.contains($0.name) }.map { "\($0.name)=\($0.value)" }
        return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
    }

    /// JavaScript for a document-start user script (main frame) that sets the
    /// `document-cookie` cookies on pages of their domain; nil when there are none.
    /// `HttpOnly` cookies cannot be set from script (lint's `cookie-http-only-script`).
    public func documentCookieScript() throws(CookieInstallError) -> String? {
        let cookies = try cookies().filter { $0.via == .documentCookie && !$0.httpOnly }
        guard !cookies.isEmpty else { return nil }
        var script = "(function () {\n  var host = location.hostname;\n"
        for cookie in cookies {
            let domain = cookie.domain.lowercased().drop { $0 == "." }
            var attributes = "; path=\(cookie.path)"
            if !cookie.hostOnly { attributes += "; domain=\(domain)" }
            if cookie.secure { attributes += "; secure" }
            if let sameSite = cookie.sameSite { attributes += "; samesite=\(sameSite.rawValue)" }
            // document.cookie reads dates as HTTP dates (RFC 6265 §5.1.1), not RFC 3339.
            if let maxAge = cookie.maxAge {
                attributes += "; max-age=\(maxAge)"
            } else if let expires = cookie.expires.flatMap(CookieDate.parse) {
                attributes += "; expires=\(CookieDate.httpDate(expires))"
            }
            let condition = cookie.hostOnly ? "host === \(Self.js(String(domain)))" : "host === \(Self.js(String(domain))) || host.endsWith(\(Self.js("." + domain)))"
            script += "  if (\(condition)) { document.cookie = \(Self.js(cookie.name + "=" + cookie.value + attributes)); }\n"
        }
        return script + "})();\n"
    }

    /// A JavaScript string literal (JSON's escaping, which JavaScript reads the same), with
    /// `<` escaped so the text can never close a script element.
    static func js(_ text: String) -> String {
        JSONValue.string(text).serialized(pretty: false).replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// `${NAME}` replaced by the source's value.
    private func fill(_ value: String, of cookie: String) throws(CookieInstallError) -> String {
        var result = ""
        var rest = Substring(value)
        while let open = rest.range(of: "${"), let close = rest[open.upperBound...].firstIndex(of: "}") {
            result += rest[..<open.lowerBound]
            let name = String(rest[open.upperBound..<close])
            guard let filled = values.value(for: name) else { throw .missingValue(cookie: cookie, placeholder: name) }
            result += filled
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
