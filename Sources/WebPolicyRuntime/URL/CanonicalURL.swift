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
    /// The parts of a URL, as the full parser builds them.
    struct Parts: Sendable, Hashable {
        var scheme: String
        var userInfo = ""
        var host: String?
        var port: Int?
        var path: String
        var query: String?
        var fragment: String?
    }

    /// Where each part lies in the canonical text, as UTF-8 offsets. The text is the URL as
    /// WebKit serialises it (`URL::string()`), so a part is a range of it and nothing is kept
    /// twice.
    struct Layout: Sendable {
        /// `user:password@` (empty without an authority or user info).
        var userInfo: Range<Int>
        /// nil for URLs without an authority.
        var host: Range<Int>?
        var port: Int?
        var path: Range<Int>
        /// After the `?`; nil without one.
        var query: Range<Int>?
        /// After the `#`; nil without one.
        var fragment: Range<Int>?
    }

    /// One buffer shared by every copy: a trace hands one URL to many loads and results, and
    /// a copy should cost one reference count. The fast path's URL is its input, as written
    /// (only a host with capitals is rewritten), so parsing one allocates this object, and the
    /// host and the request string only when they need their own storage.
    private final class Storage: Sendable {
        /// The whole canonical URL, fragment included.
        let text: String
        /// What content rules match: `text` without the fragment (the same string when it has
        /// none).
        let requestString: String
        let scheme: String
        let host: String?
        let layout: Layout

        init(text: String, schemeLength: Int, layout: Layout) {
            self.text = text
            self.layout = layout
            scheme = CanonicalURL.knownScheme(text, schemeLength) ?? Self.slice(text, 0..<schemeLength)
            host = layout.host.map { Self.slice(text, $0) }
            requestString = layout.fragment.map { Self.slice(text, 0..<($0.lowerBound - 1)) } ?? text
        }

        func part(_ range: Range<Int>) -> String { Self.slice(text, range) }

        /// UTF-8 offsets `range` of `text` (they fall on ASCII separators: the canonical text
        /// is ASCII). Copied from the bytes: slicing through String indices checks scalar
        /// boundaries at both ends, which was a tenth of canonicalising a URL.
        private static func slice(_ text: String, _ range: Range<Int>) -> String {
            if let sliced = text.utf8.withContiguousStorageIfAvailable({ String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }) {
                return sliced
            }
            let utf8 = text.utf8
            return String(utf8[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)])!
        }

        /// The parts, for the rare URL made from another (`upgraded`).
        var parts: Parts {
            var parts = Parts(scheme: scheme, userInfo: part(layout.userInfo), host: host, port: layout.port, path: part(layout.path))
            parts.query = layout.query.map(part)
            parts.fragment = layout.fragment.map(part)
            return parts
        }
    }

    /// The schemes nearly every URL has, as constant strings: slicing one out of the text
    /// validated and copied it for every URL parsed (a tenth of what making the URL's object
    /// cost, by callgrind). Matched by the bytes packed in a word, first byte lowest.
    static func knownScheme(_ text: String, _ length: Int) -> String? {
        guard length <= 5 else { return nil }
        let packed = text.utf8.withContiguousStorageIfAvailable { bytes -> UInt64 in
            guard length <= bytes.count else { return 0 }
            var packed: UInt64 = 0
            for index in stride(from: length - 1, through: 0, by: -1) { packed = packed << 8 | UInt64(bytes[index]) }
            return packed
        }
        switch packed ?? 0 {
        case 0x73_70_74_74_68: return "https"
        case 0x70_74_74_68: return "http"
        case 0x73_73_77: return "wss"
        case 0x73_77: return "ws"
        case 0x61_74_61_64: return "data"
        case 0x62_6F_6C_62: return "blob"
        case 0x74_75_6F_62_61: return "about"
        case 0x65_6C_69_66: return "file"
        default: return nil
        }
    }

    private let storage: Storage

    /// The URL serialised from its parts, with each part's place in the text.
    init(_ parts: Parts) {
        var text = parts.scheme + ":"
        var layout = Layout(userInfo: 0..<0, path: 0..<0)
        if let host = parts.host {
            text += "//"
            let userStart = text.utf8.count
            text += parts.userInfo
            layout.userInfo = userStart..<text.utf8.count
            text += host
            layout.host = layout.userInfo.upperBound..<text.utf8.count
            if let port = parts.port {
                text += ":\(port)"
                layout.port = port
            }
        } else {
            layout.userInfo = text.utf8.count..<text.utf8.count
        }
        let pathStart = text.utf8.count
        text += parts.path
        layout.path = pathStart..<text.utf8.count
        if let query = parts.query {
            text += "?"
            let start = text.utf8.count
            text += query
            layout.query = start..<text.utf8.count
        }
        if let fragment = parts.fragment {
            text += "#"
            let start = text.utf8.count
            text += fragment
            layout.fragment = start..<text.utf8.count
        }
        storage = Storage(text: text, schemeLength: parts.scheme.utf8.count, layout: layout)
    }

    /// A URL whose canonical text is already made, with its parts' places (the fast path).
    init(text: String, schemeLength: Int, layout: Layout) {
        storage = Storage(text: text, schemeLength: schemeLength, layout: layout)
    }

    public var scheme: String { storage.scheme }
    /// `user:password@`, as written, or empty.
    public var userInfo: String { storage.part(storage.layout.userInfo) }
    /// nil for URLs without an authority (`mailto:`, `data:`).
    public var host: String? { storage.host }
    /// nil when absent or the scheme's default.
    public var port: Int? { storage.layout.port }
    public var path: String { storage.part(storage.layout.path) }
    public var query: String? { storage.layout.query.map(storage.part) }
    public var fragment: String? { storage.layout.fragment.map(storage.part) }
    /// The URL a request carries: no fragment. Built once; matchers read it for every rule list.
    public var requestString: String { storage.requestString }
    /// The whole canonical URL, fragment included.
    public var description: String { storage.text }

    /// WHATWG URL equivalence: equal serialisations.
    public static func == (left: CanonicalURL, right: CanonicalURL) -> Bool {
        left.storage === right.storage || left.storage.text == right.storage.text
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(storage.text) }

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
        guard var layout = storage.layout.fragment.map({ _ in storage.layout }) else { return self }
        layout.fragment = nil
        return CanonicalURL(text: storage.requestString, schemeLength: storage.scheme.utf8.count, layout: layout)
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
