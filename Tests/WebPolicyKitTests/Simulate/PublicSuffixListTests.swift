import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

@Suite("Public Suffix List")
struct PublicSuffixListTests {
    static let list = try! PublicSuffixList.bundled()

    @Test func theBundledSnapshotLoadsFromThePackageResources() {
        #expect(Self.list.ruleCount > 9_000)
        #expect(PublicSuffixList.bundledPath()?.contains("webpolicy_WebPolicyRuntime") == true, "\(PublicSuffixList.bundledPath() ?? "none")")
    }

    @Test(arguments: [
        // The list's own test cases (publicsuffix.org test file), the common part.
        ("com", "com"), ("example.com", "example.com"), ("www.example.com", "example.com"),
        ("uk.com", "uk.com"), ("example.uk.com", "example.uk.com"), ("b.example.uk.com", "example.uk.com"),
        ("a.b.example.uk.com", "example.uk.com"), ("test.ac", "test.ac"),
        ("mm", "mm"), ("c.mm", "c.mm"), ("b.c.mm", "b.c.mm"), ("a.b.c.mm", "b.c.mm"),
        ("test.jp", "test.jp"), ("www.test.jp", "test.jp"), ("ac.jp", "ac.jp"), ("test.ac.jp", "test.ac.jp"),
        ("kyoto.jp", "kyoto.jp"), ("test.kyoto.jp", "test.kyoto.jp"), ("ide.kyoto.jp", "ide.kyoto.jp"),
        ("b.ide.kyoto.jp", "b.ide.kyoto.jp"), ("a.b.ide.kyoto.jp", "b.ide.kyoto.jp"),
        ("c.kobe.jp", "c.kobe.jp"), ("b.c.kobe.jp", "b.c.kobe.jp"), ("city.kobe.jp", "city.kobe.jp"), ("www.city.kobe.jp", "city.kobe.jp"),
        ("www.example.co.uk", "example.co.uk"), ("user.github.io", "user.github.io"), ("a.user.github.io", "user.github.io"),
        ("xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"), ("www.xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"),
        ("127.0.0.1", "127.0.0.1"), ("localhost", "localhost"),
    ])
    func registrableDomain(host: String, expected: String) {
        #expect(Self.list.registrableDomain(of: host) == expected)
    }

    @Test func thirdPartyIsByRegistrableDomain() {
        #expect(!Self.list.isThirdParty(resourceHost: "cdn.example.com", topHost: "www.example.com"))
        #expect(Self.list.isThirdParty(resourceHost: "tracker.example.net", topHost: "www.example.com"))
        #expect(Self.list.isThirdParty(resourceHost: "bob.github.io", topHost: "alice.github.io"))
        #expect(!Self.list.isThirdParty(resourceHost: "example.co.uk", topHost: "www.example.co.uk"))
    }
}
