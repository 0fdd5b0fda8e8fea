import Testing
@testable import URLFilter

/// Seeded random patterns over regex punctuation: the parser must never crash or hang, and its
/// results must keep their invariants. The seed is fixed so a failure replays; change it to
/// explore (`URLFilterFuzzTests.seed`).
@Suite("url-filter fuzzing")
struct URLFilterFuzzTests {
    static let seed: UInt64 = 0x5EB_F11E_2026
    static let alphabet = Array("ab.^$|()[]{}?*+-\\,:<>=!kdwxu0123456789/é")


    @Test func randomPatternsKeepTheParserInvariants() {
        var generator = SplitMix64(state: Self.seed)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...24, using: &generator)
            let pattern = String((0..<length).map { _ in Self.alphabet.randomElement(using: &generator)! })
            let result = URLFilterParser.parse(pattern)
            let count = pattern.unicodeScalars.count
            switch result {
            case .filter(let filter):
                #expect(!filter.terms.isEmpty, "pattern \(pattern)")
                #expect(filter.terms.contains { $0.matchesAtLeastOneCharacter }, "pattern \(pattern)")
            case .matchesEverything:
                break
            case .rejected(let problem):
                #expect(problem.status.isRejectedByWebKit, "pattern \(pattern)")
                #expect(problem.span.offset >= 0 && problem.span.offset + problem.span.length <= max(count, 1), "pattern \(pattern): \(problem)")
                #expect((problem.status == .yarrError) == (problem.syntaxError != nil), "pattern \(pattern)")
            }
            #expect(URLFilterParser.parse(pattern) == result, "pattern \(pattern) parses differently twice")
        }
    }
}
