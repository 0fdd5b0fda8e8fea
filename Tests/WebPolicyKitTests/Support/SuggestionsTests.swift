import Testing
@testable import WebPolicyKit
import URLFilter

/// "Did you mean": the bounded search picks what a plain scan of every candidate picks.
@Suite("Suggestions")
struct SuggestionsTests {
    @Test func typosFindTheirKey() {
        #expect(Suggestions.closest(to: "http-alowlist", in: PolicyKeys.topLevel) == "http-allowlist")
        #expect(Suggestions.closest(to: "HTTP-Allowlist", in: PolicyKeys.topLevel) == "http-allowlist")
        #expect(Suggestions.closest(to: "cokies", in: ["cookies", "content-rules"]) == "cookies")
        #expect(Suggestions.closest(to: "completely-different", in: PolicyKeys.topLevel) == nil)
    }

    @Test func transpositionsCostOneEdit() {
        #expect(Suggestions.editDistance("abcd", "abdc") == 1)
        #expect(Suggestions.editDistance("kitten", "sitting") == 3)
        #expect(Suggestions.editDistance("", "abc") == 3)
    }

    @Test func theBoundedSearchAgreesWithAFullScan() {
        var random = SplitMix64(state: 7)
        let alphabet = Array("abcdeé-_xyz".unicodeScalars)
        func word(_ length: Int) -> String {
            String(String.UnicodeScalarView((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
        }
        for _ in 0..<400 {
            let candidates = (0..<Int(random.next() % 12)).map { _ in word(1 + Int(random.next() % 14)) }
            let typed = word(1 + Int(random.next() % 14))
            let limit = max(1, typed.count / 3)
            var expected: (String, Int)?
            for candidate in candidates {
                let distance = Suggestions.editDistance(typed.lowercased(), candidate.lowercased())
                if distance <= limit, distance < (expected?.1 ?? Int.max) { expected = (candidate, distance) }
            }
            #expect(Suggestions.closest(to: typed, in: candidates) == expected?.0, "\(typed) in \(candidates)")
        }
    }
}
