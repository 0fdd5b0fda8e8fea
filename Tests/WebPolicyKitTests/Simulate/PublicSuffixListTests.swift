import Foundation
import Testing
import URLFilter
@testable import WebPolicyKit
@testable import WebPolicyRuntime

@Suite("Public Suffix List")
struct PublicSuffixListTests {
    static let list = PublicSuffixList.bundled()

    /// Compiled in (no resource to find): both sections, whole, to their last line.
    @Test func theSnapshotIsCompiledIn() {
        #expect(Self.list.ruleCount > 9_000)
        #expect(PublicSuffixList.snapshot.hasPrefix("// This Source Code Form is subject to the terms of the Mozilla Public"))
        #expect(PublicSuffixList.snapshot.contains("// ===END ICANN DOMAINS==="))
        #expect(PublicSuffixList.snapshot.hasSuffix("// ===END PRIVATE DOMAINS==="))
        #expect(Self.list.publicSuffix(of: "foo.github.io") == "github.io")
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
        // A fully qualified host (a trailing dot) keeps its dot on its registrable domain, as
        // WebKit decides third-party loads (ci/webkit-conformance facts.json, fact-trailing-dot):
        // once "com." made every *.com. load first-party.
        ("www.example.com.", "example.com."), ("example.com.", "example.com."), ("a.b.example.co.uk.", "example.co.uk."), ("com.", "com."),
    ])
    func registrableDomain(host: String, expected: String) {
        #expect(Self.list.registrableDomain(of: host) == expected)
    }

    /// The suffix lookup walks slices of the host; the list's algorithm as written (labels
    /// joined back into each candidate) must agree on hosts of every shape the list has —
    /// rules, wildcards, exceptions — with empty labels, trailing dots and unlisted labels.
    @Test func theSliceWalkAgreesWithTheLabelJoiningAlgorithm() {
        let list = PublicSuffixList(text: """
        com
        co.uk
        uk
        *.ck
        !www.ck
        *.kawasaki.jp
        !city.kawasaki.jp
        github.io
        a-very-long-public-suffix-label.example
        """)
        func reference(_ host: String) -> String {
            let labels = host.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            for start in labels.indices {
                let candidate = labels[start...].joined(separator: ".")
                if list.exceptions.contains(candidate[...]) { return labels[(start + 1)...].joined(separator: ".") }
                if list.rules.contains(candidate[...]) { return candidate }
                if start + 1 < labels.count, list.wildcards.contains(labels[(start + 1)...].joined(separator: ".")[...]) { return candidate }
            }
            return labels[labels.count - 1]
        }
        let labels = ["com", "co", "uk", "ck", "www", "city", "kawasaki", "jp", "github", "io", "x", "", "a-very-long-public-suffix-label", "example", "ünï"]
        var generator = SplitMix64(state: 0x5EED_0F_5011)
        var checked = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...5, using: &generator)
            let host = (0..<count).map { _ in labels.randomElement(using: &generator)! }.joined(separator: ".")
            #expect(list.publicSuffix(of: host) == reference(host), "\(host)")
            checked += 1
        }
        for host in ["", ".", "..", "com.", ".com", "www.ck", "a.www.ck", "b.ck", "a.b.ck", "city.kawasaki.jp", "x.city.kawasaki.jp", "y.kawasaki.jp"] {
            #expect(list.publicSuffix(of: host) == reference(host), "\(host)")
        }
        #expect(checked == 20_000)
    }

    /// The byte path agrees with the Character path on every host it answers: the list's own
    /// shapes (rules, wildcards, exceptions), empty labels, addresses and near-addresses, the
    /// bundled list's rules with labels before them, and hosts it must leave to the general
    /// path (trailing dots, brackets, spaces, non-ASCII) — and it does answer the common ones.
    @Test func theByteWalkAgreesWithTheCharacterWalk() {
        let small = PublicSuffixList(text: "com\nco.uk\nuk\n*.ck\n!www.ck\n*.kawasaki.jp\n!city.kawasaki.jp\ngithub.io\n")
        let labels = ["com", "co", "uk", "ck", "www", "city", "kawasaki", "jp", "github", "io", "x", "", "cafe", "0x7f", "1", "255", "ab-c", "_dmarc", "é", " ", "[", "."]
        var generator = SplitMix64(state: 0xD0_3A1E)
        var answered = 0
        for list in [small, Self.list] {
            for _ in 0..<20_000 {
                let count = Int.random(in: 1...5, using: &generator)
                let host = (0..<count).map { _ in labels.randomElement(using: &generator)! }.joined(separator: ".")
                if let fast = list.printableRegistrableDomain(of: host) {
                    answered += 1
                    #expect(fast == list.registrableDomainByCharacters(of: host), "\(host)")
                }
            }
        }
        let bundledRules = Self.list.rules.map(String.init) + Self.list.wildcards.map { "w." + $0 } + Self.list.exceptions.map(String.init)
        for rule in bundledRules.sorted() {
            for host in [rule, "a." + rule, "b.a." + rule, "a..\(rule)"] {
                if let fast = Self.list.printableRegistrableDomain(of: host) {
                    answered += 1
                    #expect(fast == Self.list.registrableDomainByCharacters(of: host), "\(host)")
                }
            }
        }
        for host in ["www.example.com", "cdn.jsdelivr.net", "static.recipes2267.co.uk", "a.user.github.io", "localhost"] {
            #expect(Self.list.printableRegistrableDomain(of: host) != nil, "\(host)")
        }
        for host in ["example.com.", "[::1]", "127.0.0.1", "0x7f.1", "caf\u{E9}.fr", "a b.com", ""] {
            #expect(Self.list.printableRegistrableDomain(of: host) == nil, "\(host)")
        }
        #expect(answered > 30_000)
    }

    @Test func thirdPartyIsByRegistrableDomain() {
        #expect(!Self.list.isThirdParty(resourceHost: "cdn.example.com", topHost: "www.example.com"))
        #expect(Self.list.isThirdParty(resourceHost: "tracker.example.net", topHost: "www.example.com"))
        #expect(Self.list.isThirdParty(resourceHost: "bob.github.io", topHost: "alice.github.io"))
        #expect(!Self.list.isThirdParty(resourceHost: "example.co.uk", topHost: "www.example.co.uk"))
    }

    /// The list as the parser read it before it read bytes: the text as Characters, lines split
    /// at every Unicode line break, each read to its first Unicode whitespace.
    func referenceSets(_ text: String) -> (rules: Set<Substring>, wildcards: Set<Substring>, exceptions: Set<Substring>, count: Int) {
        var rules: Set<Substring> = [], wildcards: Set<Substring> = [], exceptions: Set<Substring> = [], count = 0
        for line in text.split(whereSeparator: \.isNewline) {
            guard let rule = line.split(whereSeparator: \.isWhitespace).first, !rule.hasPrefix("//") else { continue }
            var name = String(rule).lowercased()
            if !name.unicodeScalars.allSatisfy(\.isASCII) { name = Punycode.toASCII(host: name) ?? name }
            count += 1
            if name.hasPrefix("!") { exceptions.insert(name.dropFirst()) } else if name.hasPrefix("*.") { wildcards.insert(name.dropFirst(2)) } else { rules.insert(name[...]) }
        }
        return (rules, wildcards, exceptions, count)
    }

    /// The byte reading of the list agrees with the Character reading: on the bundled list, and
    /// on texts of Unicode line breaks and spaces, \r\n, combining marks, comments and case.
    @Test func readingBytesAgreesWithReadingCharacters() throws {
        var texts = [PublicSuffixList.snapshot]
        let pieces = ["a", "B", "é", "com", ".", "*.", "!", "//", "/", " ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}",
                      "\u{A0}", "\u{3000}", "\u{301}", "\u{1F600}", "xn--p1ai", "рф", "ÉCOLE"]
        var random = SplitMix64(state: 5)
        for _ in 0..<2_000 {
            texts.append((0..<Int(random.next() % 24)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        }
        for text in texts {
            let list = PublicSuffixList(text: text)
            let expected = referenceSets(text)
            #expect(list.rules == expected.rules && list.wildcards == expected.wildcards && list.exceptions == expected.exceptions && list.ruleCount == expected.count,
                    "\(text.prefix(200).debugDescription)")
        }
    }

    /// The ASCII forms of the snapshot's international rules, converted when the snapshot
    /// changes rather than at every start, are what `Punycode.toASCII` makes of them today.
    @Test func theSnapshotsASCIIFormsAreFresh() throws {
        var forms: [(String, String)] = []
        for line in PublicSuffixList.snapshot.split(whereSeparator: \.isNewline) {
            guard let rule = line.split(whereSeparator: \.isWhitespace).first, !rule.hasPrefix("//"), !rule.unicodeScalars.allSatisfy(\.isASCII) else { continue }
            let name = String(rule).lowercased()
            if let ascii = Punycode.toASCII(host: name), !forms.contains(where: { $0.0 == name }) { forms.append((name, ascii)) }
        }
        #expect(forms.count > 400, "the snapshot's international rules")
        let source = """
            // Generated by PublicSuffixListTests.theSnapshotsASCIIFormsAreFresh (WEBPOLICY_RECORD=1); do not edit.

            extension PublicSuffixList {
                /// Each international rule of `snapshot`, lowercased, and its ASCII form (`Punycode.toASCII`).
                static let snapshotASCIIForms: [String: String] = [

            """ + forms.sorted { $0.0.unicodeScalars.lexicographicallyPrecedes($1.0.unicodeScalars) }.map { "        \"\($0.0)\": \"\($0.1)\",\n" }.joined() + """
                ]
            }

            """
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/WebPolicyRuntime/URL/PublicSuffixListASCIIForms.swift")
        if ProcessInfo.processInfo.environment["WEBPOLICY_RECORD"] == "1" { try source.write(to: path, atomically: true, encoding: .utf8) }
        #expect(try String(contentsOf: path, encoding: .utf8) == source, "record with WEBPOLICY_RECORD=1")
        #expect(PublicSuffixList.snapshotASCIIForms == Dictionary(uniqueKeysWithValues: forms))
    }
}
