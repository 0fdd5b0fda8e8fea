import Foundation
import Testing
import URLFilter

@Suite("url-filter intersection")
struct URLFilterAutomatonTests {
    func automaton(_ pattern: String, caseSensitive: Bool = false) -> URLFilterAutomaton {
        guard case .filter(let filter) = URLFilterParser.parse(pattern, caseSensitive: caseSensitive) else {
            fatalError("not a filter: \(pattern)")
        }
        return URLFilterAutomaton(filter)
    }

    @Test(arguments: [
        ("^https://a\\.example/", "^https://a\\.example/x", true),
        ("^https://a\\.example/", "^https://b\\.example/", false),
        ("^https?://", "^http://", true),
        ("tracker", "^https://safe\\.example/", true),  // "https://safe.example/tracker" matches both
        ("\\.js$", "\\.css$", false),
        ("\\.js$", "\\.js", true),
        ("^[^:]+://+([^:/]+\\.)?example\\.com[:/]", "^https://www\\.example\\.com/", true),
        ("^[^:]+://+([^:/]+\\.)?example\\.com[:/]", "^[^:]+://+([^:/]+\\.)?example\\.net[:/]", false),
        ("^a$", "^a", true),
        ("^a$", "^ab", false),
        ("ADS", "ads", true),
    ])
    func intersection(lhs: String, rhs: String, expected: Bool) {
        #expect(URLFilterAutomaton.canMatchSameURL(automaton(lhs), automaton(rhs)) == expected, "\(lhs) ∩ \(rhs)")
        #expect(URLFilterAutomaton.canMatchSameURL(automaton(rhs), automaton(lhs)) == expected, "\(rhs) ∩ \(lhs)")
    }

    @Test func caseSensitiveFiltersDoNotMeetAcrossCase() {
        #expect(URLFilterAutomaton.canMatchSameURL(automaton("^https://x/ADS$", caseSensitive: true), automaton("^https://x/ads$", caseSensitive: true)) == false)
        #expect(URLFilterAutomaton.canMatchSameURL(automaton("^https://x/ADS$", caseSensitive: true), automaton("^https://x/ads$")) == true)
    }
}

@Suite("url-filter automaton set")
struct URLFilterAutomatonSetTests {
    func automaton(_ pattern: String) -> URLFilterAutomaton {
        guard case .filter(let filter) = URLFilterParser.parse(pattern) else { fatalError("not a filter: \(pattern)") }
        return URLFilterAutomaton(filter)
    }

    @Test func reportsTheFirstOverlappingMemberInIndexOrder() {
        let set = URLFilterAutomatonSet(["^https://a/", "^https://b/", "\\.js$", "^https://b/x"].map(automaton))
        #expect(set.firstOverlap(with: automaton("^https://b/x\\.js")) == .member(1))
        #expect(set.firstOverlap(with: automaton("^https://b/x\\.js"), include: { $0 != 1 }) == .member(2))
        #expect(set.firstOverlap(with: automaton("^https://c/x\\.css$")) == .none)
        #expect(set.firstOverlap(with: automaton("^https://c/x\\.css")) == .member(2))  // "https://c/x.css.js"
    }

    @Test func anExhaustedBudgetIsUndecided() {
        let set = URLFilterAutomatonSet([automaton("a.*b.*c.*d.*e")])
        #expect(set.firstOverlap(with: automaton("e.*d.*c.*b.*a"), budget: 3) == .undecided)
        #expect(set.firstOverlap(with: automaton("e.*d.*c.*b.*a")) == .member(0))
    }

    /// Cross-checks the automata against brute force: every short string over a small alphabet,
    /// matched with a reference regex engine. A shared match must be found; a filter without
    /// `*` or `+` has no match longer than the strings tried, so "overlap" must then be proven
    /// by a short string too.
    @Test func agreesWithBruteForceOnRandomFilters() throws {
        var generator = SplitMix64(state: 0x5EED_CAFE)
        let atoms = ["a", "b", "/", ".", "[ab]", "[^a]", "(ab)", "(a/)"]
        let quantifiers = ["", "", "", "?", "*", "+"]
        func randomFilter() -> String {
            var pattern = Int.random(in: 0..<3, using: &generator) == 0 ? "^" : ""
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                pattern += atoms.randomElement(using: &generator)! + quantifiers.randomElement(using: &generator)!
            }
            return pattern + (Int.random(in: 0..<3, using: &generator) == 0 ? "$" : "")
        }
        var strings = [""]
        var frontier = [""]
        for _ in 0..<7 {
            frontier = frontier.flatMap { prefix in ["a", "b", "/"].map { prefix + $0 } }
            strings += frontier
        }
        for _ in 0..<300 {
            let (left, right) = (randomFilter(), randomFilter())
            guard case .filter(let l) = URLFilterParser.parse(left), case .filter(let r) = URLFilterParser.parse(right) else { continue }
            let leftRegex = try NSRegularExpression(pattern: left, options: [.caseInsensitive])
            let rightRegex = try NSRegularExpression(pattern: right, options: [.caseInsensitive])
            let witness = strings.first { string in
                let range = NSRange(string.startIndex..., in: string)
                return leftRegex.firstMatch(in: string, range: range) != nil && rightRegex.firstMatch(in: string, range: range) != nil
            }
            let decided = URLFilterAutomaton.canMatchSameURL(URLFilterAutomaton(l), URLFilterAutomaton(r))
            if witness != nil {
                #expect(decided == true, "\(left) ∩ \(right) share \(witness!.debugDescription)")
            } else if !(left + right).contains(where: { "*+".contains($0) }) {
                #expect(decided == false, "\(left) ∩ \(right) share no string of up to 7 characters")
            }
        }
    }
}
