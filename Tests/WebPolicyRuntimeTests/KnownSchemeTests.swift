import Testing
@testable import WebPolicyRuntime

/// A URL's scheme is a constant string for the schemes nearly every URL has, read from the
/// bytes packed in a word; any other scheme is sliced from the text as before.
@Suite("Known schemes")
struct KnownSchemeTests {
    static let known = ["https", "http", "wss", "ws", "data", "blob", "about", "file"]

    @Test func eachKnownSchemeIsFoundByItsBytes() {
        for scheme in Self.known {
            #expect(CanonicalURL.knownScheme(scheme + ":rest", scheme.utf8.count) == scheme)
        }
    }

    @Test func nearMissesAreNotKnown() {
        let others = ["httpss", "htt", "h", "httpx", "wsss", "w", "dat", "datas", "blobs", "abou", "files", "ftp", "mailto", "javascript", "sptth", "HTTP"]
        for scheme in others {
            #expect(CanonicalURL.knownScheme(scheme + ":rest", scheme.utf8.count) == nil, "\(scheme)")
        }
    }

    @Test func everyParsedURLHasTheSchemeItsTextStartsWith() throws {
        for input in Self.known.map({ $0 + "://example.com/x" }) + ["ftp://example.com/", "mailto:a@b.c", "x-custom:thing", "javascript:void(0)", "HTTPS://Example.COM/"] {
            let url = try CanonicalURL.parse(input).get()
            #expect(url.scheme == String(url.description.prefix { $0 != ":" }), "\(input)")
        }
    }
}
