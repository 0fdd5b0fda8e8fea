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

    /// The textbook table, whole: what the bounded, buffered search must agree with.
    func referenceDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs.unicodeScalars), b = Array(rhs.unicodeScalars)
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1) }
            }
        }
        return table[a.count][b.count]
    }

    @Test func theBoundedSearchAgreesWithAFullScan() {
        var random = SplitMix64(state: 7)
        // Upper case and letters whose lower case is longer (İ) or elsewhere (K, the Kelvin sign).
        let alphabet = Array("abcdeé-_xyzABÉ\u{130}\u{212A}".unicodeScalars)
        func word(_ length: Int) -> String {
            String(String.UnicodeScalarView((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
        }
        for round in 0..<2_000 {
            // Half the rounds in plain ASCII, the search's fast path.
            let ascii = round % 2 == 0
            func draw(_ length: Int) -> String {
                let text = word(length)
                return ascii ? String(String.UnicodeScalarView(text.unicodeScalars.filter(\.isASCII))) : text
            }
            let candidates = (0..<Int(random.next() % 12)).map { _ in draw(1 + Int(random.next() % 14)) }
            let typed = draw(1 + Int(random.next() % 14))
            let limit = max(1, typed.count / 3)
            var expected: (String, Int)?
            for candidate in candidates where abs(candidate.unicodeScalars.count - typed.lowercased().unicodeScalars.count) <= limit {
                let lowered = String(String.UnicodeScalarView(candidate.unicodeScalars.flatMap { String($0).lowercased().unicodeScalars }))
                let distance = referenceDistance(typed.lowercased(), lowered)
                #expect(Suggestions.editDistance(typed.lowercased(), lowered) == distance)
                if distance <= limit, distance < (expected?.1 ?? Int.max) { expected = (candidate, distance) }
            }
            #expect(Suggestions.closest(to: typed, in: candidates) == expected?.0, "\(typed) in \(candidates)")
        }
    }
}
