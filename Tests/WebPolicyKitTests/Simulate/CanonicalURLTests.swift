import Testing
@testable import WebPolicyKit

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

    @Test func theFragmentIsNotPartOfTheRequest() throws {
        let url = try CanonicalURL.parse("http://a.example/x#blockme").get()
        #expect(url.requestString == "http://a.example/x")
        #expect(url.description == "http://a.example/x#blockme")
    }

    @Test(arguments: [
        ("example.com/path", 0), ("1http://x", 0), ("https://exa mple.com/", 8), ("http://example.com:99999/", 19), ("http://[::1/", 7), ("http://?x", 7),
    ])
    func refuses(input: String, offset: Int) {
        guard case .failure(let error) = CanonicalURL.parse(input) else {
            Issue.record("\(input) parsed")
            return
        }
        #expect(error.offset == offset, "\(input): \(error.message)")
    }
}
