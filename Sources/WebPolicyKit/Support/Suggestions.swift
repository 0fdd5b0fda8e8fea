import WebPolicyRuntime

/// "Did you mean …?" for misspelled keys, values and rule ids.
enum Suggestions {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a typo:
    /// at most a third of the word's length (and at least one) edits away.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        let typed = Array(word.lowercased().unicodeScalars)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            // The distance is at least the difference in length: most candidates stop here,
            // before anything is allocated for them.
            guard abs(candidate.unicodeScalars.count - typed.count) <= min(limit, (best?.distance ?? Int.max) - 1) else { continue }
            let distance = editDistance(typed, Array(candidate.lowercased().unicodeScalars))
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Levenshtein distance over Unicode scalars, with transpositions costing one edit.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        editDistance(Array(lhs.unicodeScalars), Array(rhs.unicodeScalars))
    }

    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            swap(&previousPrevious, &previous)
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// `a, b, c` or `a, b, …` for long lists, for "expected one of" notes.
    static func list(_ words: [String], quoted: Bool = false) -> String {
        words.map { quoted ? "'\($0)'" : $0 }.joined(separator: ", ")
    }
}
