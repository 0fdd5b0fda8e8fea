import Testing
import URLFilter
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// WebKit's URL canonicalisation (WHATWG URL standard), as content rules see URLs; cases from
/// the standard's examples and from the real-WebKit observations in the research file (§6).
@Suite("Canonical URLs")
struct CanonicalURLTests {
    @Test(arguments: [
        ("HTTPS://WWW.Example.COM/Path", "https://www.example.com/Path"),
        ("http://example.com", "http://example.com/"),
        ("http://example.com:80/a", "http://example.com/a"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("http://example.com:8080/a", "http://example.com:8080/a"),
        ("ws://example.com:80/chat", "ws://example.com/chat"),
        ("https://example.com/a/./b/../c", "https://example.com/a/c"),
        ("https://example.com/a/%2e%2E/c", "https://example.com/c"),
        ("https://example.com/%7Efoo", "https://example.com/%7Efoo"),
        ("https://example.com/a b", "https://example.com/a%20b"),
        ("https://münchen.example/", "https://xn--mnchen-3ya.example/"),
        ("http://0x7f.1/", "http://127.0.0.1/"),
        ("http://[2001:DB8:0:0:0:0:0:1]/", "http://[2001:db8::1]/"),
        ("https:\\\\example.com\\a\\b", "https://example.com/a/b"),
        ("https://example.com/x?q=a b&r=\"", "https://example.com/x?q=a%20b&r=%22"),
        ("mailto:Team@Example.com", "mailto:Team@Example.com"),
        ("NavidaPro://HealthMagazin/issue/1", "navidapro://HealthMagazin/issue/1"),
        ("https://user:pw@example.com/", "https://user:pw@example.com/"),
    ])
    func canonicalises(input: String, expected: String) throws {
        let url = try CanonicalURL.parse(input).get()
        #expect(url.description == expected)
    }

    /// The fast path's byte sets are constants; they must be the WHATWG sets they stand for.
    @Test func theFastPathsByteSetsAreTheCharactersTheyName() {
        #expect(CanonicalURL.pathUnsafe == ByteSet("\"#<>?^`{}\\"))
        #expect(CanonicalURL.specialQueryUnsafe == ByteSet("\"#<>'"))
        #expect(CanonicalURL.fragmentUnsafe == ByteSet("\"<>`"))
        // The bytes passed over without a second look, from the sets they are made of.
        let printable = (UInt8(0x21)...0x7E).map { Character(Unicode.Scalar($0)) }
        func plain(_ keep: (Character) -> Bool) -> ByteSet { ByteSet(String(printable.filter(keep))) }
        #expect(CanonicalURL.hostPlain == plain { $0.isLowercase || $0.isNumber || $0 == "_" })
        #expect(CanonicalURL.pathPlain == plain { !"\"#<>?^`{}\\.%".contains($0) })
        #expect(CanonicalURL.queryPlain == plain { !"\"#<>'".contains($0) })
        #expect(CanonicalURL.fragmentPlain == plain { !"\"<>`".contains($0) })
    }

    @Test func theFragmentIsNotPartOfTheRequest() throws {
        let url = try CanonicalURL.parse("http://a.example/x#blockme").get()
        #expect(url.requestString == "http://a.example/x")
        #expect(url.description == "http://a.example/x#blockme")
    }

    /// A URL is one canonical text with each part's place in it: the parts read back from
    /// their places, for every shape of URL and for the URLs made from others.
    @Test func thePartsAreRangesOfTheOneText() throws {
        let url = try CanonicalURL.parse("HTTP://User:PW@Example.COM:8080/a/../b?q=1#frag").get()
        #expect(url.description == "http://User:PW@example.com:8080/b?q=1#frag")
        #expect(url.scheme == "http" && url.userInfo == "User:PW@" && url.host == "example.com" && url.port == 8080)
        #expect(url.path == "/b" && url.query == "q=1" && url.fragment == "frag" && url.requestString == "http://User:PW@example.com:8080/b?q=1")
        let upgraded = url.upgraded(to: "https")
        #expect(upgraded.description == "https://User:PW@example.com/b?q=1#frag" && upgraded.port == nil && upgraded.host == "example.com" && upgraded.query == "q=1")
        let bare = url.withoutFragment
        #expect(bare.description == "http://User:PW@example.com:8080/b?q=1" && bare.fragment == nil && bare.path == "/b")
        let opaque = try CanonicalURL.parse("mailto:Team@Example.com?subject=Hi").get()
        #expect(opaque.host == nil && opaque.userInfo == "" && opaque.path == "Team@Example.com" && opaque.query == "subject=Hi")
        let empty = try CanonicalURL.parse("https://Shop.Example/?q#").get()
        #expect(empty.description == "https://shop.example/?q#" && empty.path == "/" && empty.query == "q" && empty.fragment == "" && empty.requestString == "https://shop.example/?q")
        let file = try CanonicalURL.parse("file:///C:/x").get()
        #expect(file.host == "" && file.path == "/C:/x")
    }

    @Test(arguments: [
        ("example.com/path", 0), ("1http://x", 0), ("https://exa mple.com/", 11), ("http://example.com:99999/", 19), ("http://[::1/", 7), ("http://?x", 7),
        // Found by fuzzing (ci/fuzz, FuzzURL): the first colon ends the host, so these have ports
        // that are not numbers; an opaque host refuses what WebKit's URLParser forbids in hosts.
        ("hs://a:b://", 7), ("http://a:b:80/", 9), ("hs://aps\u{FFFD}:\u{FFFD}\u{FFFD}://", 10), ("hs://a[b/", 6), ("hs://a b/", 6),
    ])
    func refuses(input: String, offset: Int) {
        guard case .failure(let error) = CanonicalURL.parse(input) else {
            Issue.record("\(input) parsed")
            return
        }
        #expect(error.offset == offset, "\(input): \(error.message)")
    }

    /// The byte-level fast path must agree with the full parser wherever it answers: random
    /// URLs built from the pieces that matter (case, dots, escapes, ports, IPs, odd characters).
    @Test func theFastPathAgreesWithTheFullParser() {
        var random = SplitMix64(state: 0xFA57_9A7E)  // seeded: a failure replays
        let schemes = ["http://", "https://", "HTTP://", "http:/", "https:///", "ftp://", "http:\\\\"]
        let hostPieces = ["example", "EXAMPLE", "a", "xn--bcher-kva", "_x", "-", ".", "com", "9", "0x1", "1", "255", "..", "com", "%41", "b\u{fc}cher", ":8080", ":80", "@", "user@", "[::1]", "ex ample"]
        let pathPieces = ["/", "a", "%41", "?", "#", ".", "..", "%2e", "%2E", "%2", "x y", "^", "`", "{", "}", "\\", "\"", "'", "<", "\u{e9}", "/./", "/../", "~", ";", "=", "&", "\t"]
        // The first few of each list are pieces the fast path takes; most URLs are mostly those.
        func piece(_ pieces: [String], safe: Int) -> String {
            Int.random(in: 0..<10, using: &random) < 8 ? pieces[Int.random(in: 0..<safe, using: &random)] : pieces.randomElement(using: &random)!
        }
        var answered = 0
        for _ in 0..<20_000 {
            var url = piece(schemes, safe: 2)
            for _ in 0..<Int.random(in: 1...4, using: &random) { url += piece(hostPieces, safe: 9) }
            for _ in 0..<Int.random(in: 0...6, using: &random) { url += piece(pathPieces, safe: 5) }
            guard let fast = CanonicalURL.parseSimple(url) else { continue }
            answered += 1
            guard case .success(let full) = CanonicalURL.parseFully(url) else {
                Issue.record("the fast path accepts \(url), the full parser refuses it")
                continue
            }
            #expect(fast == full && fast.description == full.description && fast.requestString == full.requestString,
                    "\(url): fast \(fast.description), full \(full.description)")
            // Each part is a range of the one text: the ranges must be the full parser's.
            #expect(fast.scheme == full.scheme && fast.userInfo == full.userInfo && fast.host == full.host && fast.port == full.port
                    && fast.path == full.path && fast.query == full.query && fast.fragment == full.fragment, "\(url): the parts differ")
            #expect(fast.withoutFragment.description == full.requestString && fast.withoutFragment.fragment == nil && fast.withoutFragment.path == full.path)
        }
        #expect(answered > 1_000)
    }
}
