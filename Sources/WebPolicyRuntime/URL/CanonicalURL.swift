import Foundation

/// A URL as WebKit canonicalises it before content rules see it (`WTF::URLParser`, the WHATWG
/// URL standard): lowercase scheme and host, international hosts in punycode, IPv4 numbers in
/// dotted decimal, the scheme's default port dropped, dot segments removed, characters outside
/// the path/query sets percent-encoded (escapes already present kept as written), an empty
/// path of a special scheme made `/`.
///
/// `requestString` is what content rules match: the URL without its fragment, which a request
/// never carries (seen on a real WebKit: `…/x#blockme` is not blocked by `blockme`).
public struct CanonicalURL: Sendable, Hashable, CustomStringConvertible {
    /// The parts of a URL, as the parser builds them.
    struct Parts: Sendable, Hashable {
        var scheme: String
        var userInfo = ""
        var host: String?
        var port: Int?
        var path: String
        var query: String?
        var fragment: String?
    }

    /// Shared by every copy: a trace hands one URL to many loads and results, and a copy
    /// should cost one reference count, not one per string.
    private final class Storage: Sendable {
        let parts: Parts
        let requestString: String
        let description: String

        init(_ parts: Parts) {
            self.parts = parts
            var text = parts.scheme + ":"
            if let host = parts.host {
                text += "//" + parts.userInfo + host
                if let port = parts.port { text += ":\(port)" }
            }
            text += parts.path
            if let query = parts.query { text += "?" + query }
            requestString = text
            description = parts.fragment.map { text + "#" + $0 } ?? text
        }
    }

    private let storage: Storage

    init(_ parts: Parts) { storage = Storage(parts) }

    public var scheme: String { storage.parts.scheme }
    /// `user:password@`, as written, or empty.
    public var userInfo: String { storage.parts.userInfo }
    /// nil for URLs without an authority (`mailto:`, `data:`).
    public var host: String? { storage.parts.host }
    /// nil when absent or the scheme's default.
    public var port: Int? { storage.parts.port }
    public var path: String { storage.parts.path }
    public var query: String? { storage.parts.query }
    public var fragment: String? { storage.parts.fragment }
    /// The URL a request carries: no fragment. Built once; matchers read it for every rule list.
    public var requestString: String { storage.requestString }
    /// The whole canonical URL, fragment included.
    public var description: String { storage.description }

    public static func == (left: CanonicalURL, right: CanonicalURL) -> Bool {
        left.storage === right.storage || left.storage.parts == right.storage.parts
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(storage.parts) }

    public static let specialSchemes: [String: Int?] = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21, "file": nil]

    public var isSpecial: Bool { Self.specialSchemes[scheme] != nil }


    public struct ParseError: Error, Equatable, Sendable {
        public var message: String
        /// Scalar offset in the input where the problem is.
        public var offset: Int
    }

    /// The URL of a new frame's or view's initial empty document.
    public static let aboutBlank = try! parse("about:blank").get()

    public static func parse(_ input: String) -> Result<CanonicalURL, ParseError> {
        if let simple = parseSimple(input) { return .success(simple) }
        return parseFully(input)
    }

    /// WebKit's parser (`WebKitURLParser`) for every URL, simple or not.
    package static func parseFully(_ input: String) -> Result<CanonicalURL, ParseError> {
        var parser = WebKitURLParser(input)
        do {
            return .success(CanonicalURL(try parser.parse()))
        } catch {
            return .failure(error)
        }
    }

    /// The URL as a request carries it, without its fragment.
    package var withoutFragment: CanonicalURL {
        guard storage.parts.fragment != nil else { return self }
        var parts = storage.parts
        parts.fragment = nil
        return CanonicalURL(parts)
    }

    /// The same URL with another scheme and port (what `make-https` makes of it).
    package func upgraded(to newScheme: String) -> CanonicalURL {
        var parts = storage.parts
        parts.scheme = newScheme
        parts.port = nil
        return CanonicalURL(parts)
    }
}

/// Hosts that are IPv4 addresses, for the code that asks of a host it already has.
package enum IPv4 {
    /// The dotted-decimal address `host` stands for, as WebKit reads it; nil for a domain.
    package static func canonical(_ host: String) -> String? {
        guard case .address(let address) = IPv4Address.parse(Array(host.utf8)) else { return nil }
        return IPv4Address.serialize(address)
    }
}
