import WebPolicyRuntime

/// "Did you mean …?" for misspelled keys, values and rule ids.
enum Suggestions {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a typo:
    /// at most a third of the word's length (and at least one) edits away.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        let typed = Array(word.lowercased().unicodeScalars)
        var scratch = Scratch()
        var other: [Unicode.Scalar] = []
        let typedBag = Bag(typed)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            // The distance is at least the difference in length: most candidates stop here.
            guard abs(candidate.unicodeScalars.count - typed.count) <= min(limit, (best?.distance ?? Int.max) - 1) else { continue }
            other.removeAll(keepingCapacity: true)
            for scalar in candidate.unicodeScalars {
                // Keys and ids are ASCII lowercase already; only others pay for `lowercased()`.
                if scalar.isASCII, !("A"..."Z").contains(scalar) { other.append(scalar) } else { other.append(contentsOf: String(scalar).lowercased().unicodeScalars) }
            }
            let bound = min(limit, (best?.distance ?? Int.max) - 1)
            // Then the letters the two do not share, in a linear pass, before the table.
            guard typedBag.distance(to: other, scratch: &scratch.bag) <= bound else { continue }
            let distance = editDistance(typed, other, bound: bound, scratch: &scratch)
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Levenshtein distance over Unicode scalars, with transpositions costing one edit.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        var scratch = Scratch()
        return editDistance(Array(lhs.unicodeScalars), Array(rhs.unicodeScalars), bound: Int.max - 1, scratch: &scratch)
    }

    /// A word's letters counted in 128 buckets. The bag distance (letters one word has and the
    /// other lacks, the larger side) is at most the edit distance — each edit changes it by at
    /// most one, a transposition not at all — and letters sharing a bucket only lower it, so it
    /// stays a lower bound.
    private struct Bag {
        var counts = [Int32](repeating: 0, count: 128)
        let size: Int

        init(_ word: [Unicode.Scalar]) {
            size = word.count
            for scalar in word { counts[Int(scalar.value & 127)] += 1 }
        }

        func distance(to other: [Unicode.Scalar], scratch: inout [Int32]) -> Int {
            if scratch.count != counts.count { scratch = [Int32](repeating: 0, count: counts.count) }
            scratch.withUnsafeMutableBufferPointer { left in
                counts.withUnsafeBufferPointer { left.baseAddress!.update(from: $0.baseAddress!, count: $0.count) }
            }
            var unmatched = 0
            for scalar in other {
                let bucket = Int(scalar.value & 127)
                if scratch[bucket] > 0 { scratch[bucket] -= 1 } else { unmatched += 1 }
            }
            return max(unmatched, size - (other.count - unmatched))
        }
    }

    /// Three rows of the distance table (and the bag's counts), kept across candidates so that
    /// a search allocates them once.
    private struct Scratch {
        var bag: [Int32] = []
        var previousPrevious: [Int] = []
        var previous: [Int] = []
        var current: [Int] = []

        mutating func reset(width: Int) {
            Self.fill(&previousPrevious, width: width) { _ in 0 }
            Self.fill(&previous, width: width) { $0 }
            Self.fill(&current, width: width) { _ in 0 }
        }

        private static func fill(_ row: inout [Int], width: Int, _ value: (Int) -> Int) {
            row.removeAll(keepingCapacity: true)
            for column in 0..<width { row.append(value(column)) }
        }
    }

    /// The distance, or something above `bound` once the distance is known to exceed it: a row
    /// takes its values from the two above it, each plus at least one, so when two rows in a
    /// row are over the bound, every later one is too (the usual cut-off of a bounded search).
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], bound: Int, scratch: inout Scratch) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        scratch.reset(width: b.count + 1)
        var previousRowOver = false
        for i in 1...a.count {
            scratch.current[0] = i
            var rowMinimum = i
            defer {
                swap(&scratch.previousPrevious, &scratch.previous)
                swap(&scratch.previous, &scratch.current)
            }
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                scratch.current[j] = min(scratch.previous[j] + 1, scratch.current[j - 1] + 1, scratch.previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    scratch.current[j] = min(scratch.current[j], scratch.previousPrevious[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, scratch.current[j])
            }
            if rowMinimum > bound {
                if previousRowOver { return bound + 1 }
                previousRowOver = true
            } else {
                previousRowOver = false
            }
        }
        return scratch.previous[b.count]
    }

    /// `a, b, c` or `a, b, …` for long lists, for "expected one of" notes.
    static func list(_ words: [String], quoted: Bool = false) -> String {
        words.map { quoted ? "'\($0)'" : $0 }.joined(separator: ", ")
    }
}
