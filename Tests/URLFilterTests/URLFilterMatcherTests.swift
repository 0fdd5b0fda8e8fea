import Foundation
import Testing
@testable import URLFilter

/// The matcher against a reference: ICU's regex engine (`NSRegularExpression`, a backtracking
/// matcher that shares nothing with ours) searching the same pattern in the same URL. WebKit's
/// subset means the same there on ASCII URLs without line breaks: `.` is any character, `$` the
/// end, letters match both cases unless asked. Thousands of random patterns and URLs, no
/// disagreement.
@Suite("url-filter matcher")
struct URLFilterMatcherTests {
    static let urlAlphabet = Array("ab/.:?=AB-x")

    static func randomPattern(_ generator: inout SplitMix64, depth: Int = 0) -> String {
        let atoms = ["a", "b", "x", "A", "\\/", "\\.", ":", "\\?", "=", "-", ".", "[ab]", "[^/]", "[a-c]", "[.:]", "ab", "a/b", "xa:"]
        let quantifiers = ["", "", "", "", "?", "*", "+"]
        var pattern = ""
        for _ in 0..<Int.random(in: 1...5, using: &generator) {
            if depth < 2 && Int.random(in: 0..<6, using: &generator) == 0 {
                pattern += "(" + randomPattern(&generator, depth: depth + 1) + ")"
            } else {
                pattern += atoms.randomElement(using: &generator)!
            }
            pattern += quantifiers.randomElement(using: &generator)!
        }
        guard depth == 0 else { return pattern }
        if Int.random(in: 0..<3, using: &generator) == 0 { pattern = "^" + pattern }
        if Int.random(in: 0..<4, using: &generator) == 0 { pattern += "$" }
        return pattern
    }

    static func randomURL(_ generator: inout SplitMix64) -> String {
        String((0..<Int.random(in: 0...16, using: &generator)).map { _ in urlAlphabet.randomElement(using: &generator)! })
    }

    static func reference(_ pattern: String, caseSensitive: Bool) throws -> NSRegularExpression {
        try NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive])
    }

    static func referenceMatches(_ regex: NSRegularExpression, _ url: String) -> Bool {
        regex.firstMatch(in: url, range: NSRange(url.startIndex..., in: url)) != nil
    }

    @Test func randomFiltersAgreeWithTheReferenceOneByOne() throws {
        var generator = SplitMix64(state: 0xFACE_B00C)
        var compared = 0
        for round in 0..<2_000 {
            let pattern = Self.randomPattern(&generator)
            let caseSensitive = round % 5 == 0
            guard case .filter(let parsed) = URLFilterParser.parse(pattern, caseSensitive: caseSensitive) else { continue }
            let filter = CompiledURLFilter(parsed)
            let regex = try Self.reference(pattern, caseSensitive: caseSensitive)
            for _ in 0..<20 {
                let url = Self.randomURL(&generator)
                compared += 1
                #expect(filter.matches(url) == Self.referenceMatches(regex, url), "'\(pattern)'\(caseSensitive ? " (case-sensitive)" : "") on '\(url)'")
            }
        }
        #expect(compared > 20_000)
    }

    @Test func aMatcherOfManyFiltersAgreesWithTheReferenceOnEachURL() throws {
        var generator = SplitMix64(state: 0x5EED_0F_1157)
        for _ in 0..<20 {
            let patterns = (0..<200).map { _ in Self.randomPattern(&generator) }
            let results = patterns.map { URLFilterParser.parse($0) }
            let matcher = URLFilterMatcher(results)
            let regexes = try patterns.map { try Self.reference($0, caseSensitive: false) }
            for _ in 0..<100 {
                let url = Self.randomURL(&generator)
                let expected = patterns.indices.filter { index in
                    switch results[index] {
                    case .filter: return Self.referenceMatches(regexes[index], url)
                    // WebKit makes any pattern whose terms can all match nothing universal, even
                    // `^[a-c]*$` (`URLFilterParser::finalize`): the rule applies to every URL.
                    case .matchesEverything: return true
                    case .rejected: return false
                    }
                }
                let actual = matcher.matches(url)
                let missing = Set(expected).subtracting(actual).sorted().map { patterns[$0] }
                let extra = Set(actual).subtracting(expected).sorted().map { patterns[$0] }
                #expect(actual == expected, "'\(url)': missing \(missing), extra \(extra)")
            }
        }
    }

    @Test(arguments: [
        // WebKit test `DotDoesNotIncludeEndOfLine`.
        ("https://webkit\\.org/.", "https://webkit.org/", false),
        ("https://webkit\\.org/.", "https://webkit.org/a", true),
        // `$` is the end of the whole URL.
        ("\\.js$", "https://a.example/x.js", true),
        ("\\.js$", "https://a.example/x.js?v=1", false),
        // Unanchored unless `^`.
        ("^ads", "https://a.example/ads", false),
        ("ads", "https://a.example/ads", true),
        ("ADS", "https://a.example/ads", true),
        // NUL is WebKit's end-of-URL sentinel: no filter steps over it, a literal-only one
        // (matched by finding its literal) included (FuzzURLFilter, `literal-after-nul`).
        ("\\ZZZZZ", "qttp://ZZZ\u{3}!\u{0}\u{0}ZZZZZZZZ", false),
        ("zzzzz", "qttp://a/\u{0}zzzzz", false),
        ("zzzzz", "qttp://a/zzzzz\u{0}", true),
        ("zzzzz$", "qttp://a/zzzzz\u{0}x", true),
    ])
    func webKitSemantics(pattern: String, url: String, expected: Bool) throws {
        guard case .filter(let parsed) = URLFilterParser.parse(pattern) else { Issue.record("not a filter"); return }
        #expect(CompiledURLFilter(parsed).matches(url) == expected)
        #expect(URLFilterMatcher([.filter(parsed)]).matches(url) == (expected ? [0] : []))
    }

    @Test func caseSensitiveFiltersMatchOnlyTheirCase() throws {
        guard case .filter(let parsed) = URLFilterParser.parse("/ADS/", caseSensitive: true) else { return }
        let matcher = URLFilterMatcher([.filter(parsed), .matchesEverything, URLFilterParser.parse("a|b")])
        #expect(matcher.matches("https://x.example/ADS/") == [0, 1])
        #expect(matcher.matches("https://x.example/ads/") == [1])
    }
}

/// Host-anchored filters (`^[^:]+://+([^/]+\.)?NAME` and a tail) are looked up by name, not
/// run: a matcher of many of them must still answer exactly as each filter's automaton and as
/// the reference regex engine do, on URLs built to hit every corner the lookup reasons about —
/// user info, ports, extra slashes, leading and doubled dots, names inside paths, capitals,
/// names ending the URL, bytes beyond ASCII and NUL.
@Suite("host-anchored url-filters")
struct HostAnchoredFilterTests {
    static let names = ["ads.example", "example", "x.ads.example", "a-b.io", "t_1.net", "ads"]
    static let tails = ["[/:]", "/", ":", "/track", "[/:].*/px", "[^a-z0-9._-]", "$", "[/:]?", ".", ""]

    /// Adblock Plus's `||name` as converters write it, or the exact host a policy's `hosts:`
    /// lowers to (no subdomain part).
    static func randomFilter(_ generator: inout SplitMix64) -> String {
        let name = names.randomElement(using: &generator)!.replacingOccurrences(of: ".", with: "\\.")
        let prefix = Bool.random(using: &generator) ? "^[^:]+://+([^/]+\\.)?" : "^[^:]+://+"
        return prefix + name + tails.randomElement(using: &generator)!
    }

    static func randomURL(_ generator: inout SplitMix64) -> String {
        let schemes = ["https://", "http:///", "ws://", "x://", "https:/", "://", "https:", "a:b://"]
        let before = ["", "", "www.", "a.b.", ".", "..", "u:p@", "ads.example@", "ads.example:8080@", "sub."]
        let hosts = names + ["ADS.Example", "notads.example", "ads.example.evil", "exámple", "ads\u{0}.example"]
        let after = ["/", "/", ":443/", "/track/a", "", "?q", "#f", "/x/px", ".", "./", "/ads.example/"]
        let parts = [schemes, before, hosts, after].map { $0.randomElement(using: &generator)! }
        return parts.joined() + (Bool.random(using: &generator) ? "" : "path/ads.example/q")
    }

    @Test func aMatcherOfHostAnchoredFiltersAgreesWithEachAutomatonAndTheReference() throws {
        var generator = SplitMix64(state: 0x4057_A2C4)
        var matchedSomewhere = 0
        for _ in 0..<40 {
            let patterns = (0..<30).map { _ in Self.randomFilter(&generator) }
            matchedSomewhere += try IndexedMatcherCheck.compare(patterns, urls: (0..<150).map { _ in Self.randomURL(&generator) })
        }
        #expect(matchedSomewhere > 1_000)
    }

    /// A scratch kept from URL to URL remembers what each host part held (`HostSegmentCache`):
    /// matching through one must answer as a fresh match does, for URLs that repeat a host
    /// with another path (a tail runs on what follows), end with the host or go on with `/`,
    /// hold a host part too long to keep or with more finds than a line keeps, and for a
    /// scratch handed from one matcher to another.
    @Test func aKeptScratchAnswersAsAFreshMatch() {
        var generator = SplitMix64(state: 0x5E6_3E47)
        // Twelve filters of one name: more finds than a line keeps.
        let crowded = (0..<12).map { "^[^:]+://+([^/]+\\.)?crowd\\.example/p\($0)" } + ["^[^:]+://+([^/]+\\.)?edge\\.example[/:]"]
        let long = String(repeating: "sub.", count: 12) + "ads.example"
        var compared = 0
        var matchedSomewhere = 0
        var scratch = URLFilterMatcher.Scratch()
        for _ in 0..<20 {
            let patterns = (0..<30).map { _ in Self.randomFilter(&generator) } + crowded
            let matcher = URLFilterMatcher(patterns.map { URLFilterParser.parse($0) })
            let other = URLFilterMatcher((0..<30).map { _ in URLFilterParser.parse(Self.randomFilter(&generator)) })
            var urls = (0..<200).map { _ in Self.randomURL(&generator) }
            urls += ["https://\(long)/", "https://\(long)", "https://x.crowd.example/p3", "https://x.crowd.example/p11/q", "https://x.crowd.example",
                     "https://edge.example", "https://edge.example/", "https://edge.example", "https://edge.example/"]
            // The scratch goes to the other matcher for a stretch now and then, and back.
            for (position, url) in (urls + urls.shuffled(using: &generator) + urls).enumerated() {
                let current = position % 150 < 120 ? matcher : other
                var text = url
                text.withUTF8 { bytes in
                    var kept: [Int32] = []
                    current.matchingFilters(bytes, into: &kept, scratch: &scratch)
                    #expect(kept == current.matchingFilters(bytes, includingUniversal: false), "\(url)")
                    matchedSomewhere += kept.count
                    compared += 1
                }
            }
        }
        #expect(compared == 20 * 3 * 209)
        #expect(matchedSomewhere > 1_000)
    }

    @Test func theConvertersShapesAreIndexed() {
        for (pattern, isWholeTail, exact) in [("^[^:]+://+([^/]+\\.)?ads\\.example\\.com[/:]", true, false), ("^[^:]+://+([^/]+\\.)?g\\.doubleclick\\.net/gpt/", false, false),
                                              ("^[^:]+://+ads\\.example\\.com[:/]", true, true)] {
            guard case .filter(let parsed) = URLFilterParser.parse(pattern) else {
                Issue.record("\(pattern) does not parse")
                continue
            }
            #expect(HostAnchoredIndex.split(parsed)?.isWholeTail == isWholeTail, "\(pattern)")
            #expect(HostAnchoredIndex.split(parsed)?.exact == exact, "\(pattern)")
        }
        for pattern in ["^[^:]+://+([^/]+\\.)?ads\\.example", "^[^:]+://+([^/]+\\.)?wawacity\\..*/bypass", "^https?://ads\\.example/"] {
            guard case .filter(let parsed) = URLFilterParser.parse(pattern) else { continue }
            #expect(HostAnchoredIndex.split(parsed) == nil, "\(pattern)")
        }
    }
}

/// The regexes WebKit makes of `if-domain`/`unless-domain` entries are looked up by name: a
/// matcher of many must answer as each automaton and the reference engine do, on URLs with
/// several `://`, odd schemes, user info, ports, leading dots and capitals.
@Suite("domain-condition url-filters")
struct DomainConditionFilterTests {
    static let domains = ["example.com", "*example.com", "news.example.com", "*a-b.io", "t_1.net", "*com"]

    static func randomURL(_ generator: inout SplitMix64) -> String {
        let schemes = ["https://", "http://", "x+y.z://", "+://", "9://", "://", "HTTPS://", "a:b://"]
        let before = ["", "", "www.", "a.b.", ".", "..", "u:p@", "example.com@", "sub."]
        let hosts = ["example.com", "EXAMPLE.com", "news.example.com", "notexample.com", "example.com.evil", "a-b.io", "t_1.net", "exämple.com", "com"]
        let after = ["/", ":443/", "", "?q", "#f", ".", "./", ":", "/?u=https://example.com/"]
        return [schemes, before, hosts, after].map { $0.randomElement(using: &generator)! }.joined()
    }

    @Test func aMatcherOfDomainConditionsAgreesWithEachAutomatonAndTheReference() throws {
        var generator = SplitMix64(state: 0xD0_3A1_4)
        var matchedSomewhere = 0
        for _ in 0..<40 {
            let patterns = (0..<12).map { _ in WebKitDomainPattern.regex(for: Self.domains.randomElement(using: &generator)!) }
            matchedSomewhere += try IndexedMatcherCheck.compare(patterns, urls: (0..<150).map { _ in Self.randomURL(&generator) })
        }
        #expect(matchedSomewhere > 500)
    }

    @Test func webKitsDomainRegexesAreIndexed() {
        for domain in ["example.com", "*example.com"] {
            guard case .filter(let parsed) = URLFilterParser.parse(WebKitDomainPattern.regex(for: domain)) else {
                Issue.record("\(domain) does not parse")
                continue
            }
            #expect(DomainConditionIndex.split(parsed)?.subdomains == domain.hasPrefix("*"))
        }
    }
}

/// WebKit `getDomainList`, as webpolicy's parser port writes it (`WebKitDomainCondition`);
/// repeated here so the URLFilter tests need nothing else.
enum WebKitDomainPattern {
    static func regex(for domain: String) -> String {
        var body = Substring(domain)
        let includesSubdomains = body.hasPrefix("*")
        if includesSubdomains { body = body.dropFirst() }
        let escaped = body.map { "\\{}[.?*$".contains($0) ? "\\\($0)" : String($0) }.joined()
        return "[a-z][a-z+.-]*:\\/\\/" + (includesSubdomains ? "([^/]*\\.)*" : "") + escaped + "[:/]"
    }
}

/// The check both indexed shapes get: a matcher of the patterns answers, on each URL, as each
/// pattern's own automaton does, and the automata as the reference engine does (on ASCII URLs
/// without NUL: the reference sees characters, not bytes). Returns how many matches there were,
/// so a test can make sure it compared something.
enum IndexedMatcherCheck {
    static func compare(_ patterns: [String], urls: [String]) throws -> Int {
        let results = patterns.map { URLFilterParser.parse($0) }
        let matcher = URLFilterMatcher(results)
        let regexes = try patterns.map { try URLFilterMatcherTests.reference($0, caseSensitive: false) }
        let automata = results.map { result -> CompiledURLFilter? in
            guard case .filter(let parsed) = result else { return nil }
            return CompiledURLFilter(parsed)
        }
        var matches = 0
        for url in urls {
            let byAutomaton = patterns.indices.filter { automata[$0]?.matches(url) ?? false }
            #expect(matcher.matches(url) == byAutomaton, "\(url) \(patterns)")
            if url.utf8.allSatisfy({ $0 > 0 && $0 < 0x80 }) {
                #expect(byAutomaton == patterns.indices.filter { URLFilterMatcherTests.referenceMatches(regexes[$0], url) }, "\(url)")
            }
            matches += byAutomaton.count
        }
        return matches
    }
}
