import Testing
@testable import WebPolicyRuntime

/// Punycode (RFC 3492), as hosts are compared and listed in ASCII.
@Suite("Punycode")
struct PunycodeTests {
    /// RFC 3492, 7.1 "Sample strings" (those with basic code points keep their case: encoding
    /// alone does not lowercase), and the IDNA examples the docs use.
    @Test(arguments: [
        ("他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"),
        ("3年B組金八先生", "3B-ww4c5e180e575a65lsy2b"),
        ("安室奈美恵-with-SUPER-MONKEYS", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"),
        ("bücher", "bcher-kva"),
        ("münchen", "mnchen-3ya"),
    ])
    func encodesTheRFCSamples(input: String, expected: String) {
        #expect(Punycode.encode(input) == expected)
    }

    @Test func toASCIILowercasesAndEncodesOnlyTheLabelsThatNeedIt() {
        #expect(Punycode.toASCII(host: "WWW.Bücher.example") == "www.xn--bcher-kva.example")
        #expect(Punycode.toASCII(host: "plain.example") == "plain.example")
        #expect(Punycode.toASCII(host: "a..münchen.") == "a..xn--mnchen-3ya.")
    }

    /// The spelling WebKit's URL parser gives the host (UTS #46), not a label-by-label encoding:
    /// fullwidth letters and ideographic full stops map to ASCII, `ß` stays (non-transitional),
    /// and a host WebKit refuses has no spelling to suggest.
    @Test func toASCIISpellsTheHostAsWebKitDoes() {
        #expect(Punycode.toASCII(host: "ＧＯ.com") == "go.com")
        #expect(Punycode.toASCII(host: "www.foo。bar.com") == "www.foo.bar.com")
        #expect(Punycode.toASCII(host: "faß.de") == "xn--fa-hia.de")
        #expect(Punycode.toASCII(host: "a\u{200D}b.example") == nil)
    }
}
