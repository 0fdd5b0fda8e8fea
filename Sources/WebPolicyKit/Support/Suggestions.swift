import WebPolicyRuntime

/// "Did you mean …?" for misspelled keys, values and rule ids.
///
/// The search runs for every unknown key a policy has, so it allocates its buffers once per
/// search and reuses them for every candidate, and ASCII words (nearly all) are compared byte
/// by byte without decoding scalars.
enum Suggestions {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a typo:
    /// at most a third of the word's length (and at least one) edits away.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        var typed: [UInt32] = []
        Letters(typed: word).write(into: &typed)
        let typedBag = Bag(typed)
        var other: [UInt32] = [], rows: [Int32] = [], bagScratch = typedBag
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let bound = min(limit, (best?.distance ?? Int.max) - 1)
            // The distance is at least the difference in length: most candidates stop here.
            guard abs(SourceFile.scalarCount(candidate) - typed.count) <= bound else { continue }
            Letters(candidate: candidate).write(into: &other)
            // Then the letters the two do not share, in a linear pass, before the table.
            guard typedBag.distance(typed.count, other, scratch: &bagScratch) <= bound else { continue }
            let distance = editDistance(typed, other, bound: bound, rows: &rows)
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Levenshtein distance over Unicode scalars, with transpositions costing one edit.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        var rows: [Int32] = []
        return editDistance(lhs.unicodeScalars.map(\.value), rhs.unicodeScalars.map(\.value), bound: Int.max - 1, rows: &rows)
    }

    /// A word's lowercased scalars, as the search compares them.
    private struct Letters {
        /// The text to write: the typed word lowercased as a whole (as `lowercased()` does it,
        /// context and all), a candidate as written, lowercased scalar by scalar.
        private let text: String
        private let lowercaseEachScalar: Bool
        /// ASCII: the bytes are the scalars.
        private let isASCII: Bool

        /// The word typed: lowercased whole.
        init(typed word: String) {
            isASCII = word.utf8.allSatisfy { $0 < 0x80 }
            text = isASCII ? word : word.lowercased()
            lowercaseEachScalar = isASCII
        }

        /// A candidate: keys and ids are ASCII lowercase already; only others pay for `lowercased()`.
        init(candidate: String) {
            text = candidate
            isASCII = candidate.utf8.allSatisfy { $0 < 0x80 }
            lowercaseEachScalar = true
        }

        /// Replaces `letters` with the lowercased scalars (keeping its storage).
        func write(into letters: inout [UInt32]) {
            letters.removeAll(keepingCapacity: true)
            if isASCII {
                for byte in text.utf8 { letters.append(UInt32(lowercaseEachScalar && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)) }
                return
            }
            for scalar in text.unicodeScalars {
                if !lowercaseEachScalar || scalar.isASCII {
                    letters.append(lowercaseEachScalar && ("A"..."Z").contains(scalar) ? scalar.value | 0x20 : scalar.value)
                } else {
                    letters.append(contentsOf: String(scalar).lowercased().unicodeScalars.map(\.value))
                }
            }
        }
    }

    /// A word's letters counted in 64 buckets. The bag distance (letters one word has and the
    /// other lacks, the larger side) is at most the edit distance — each edit changes it by at
    /// most one, a transposition not at all — and letters sharing a bucket only lower it, so it
    /// stays a lower bound.
    private struct Bag {
        static let buckets = 64
        var counts: [Int32]

        init(_ word: [UInt32]) {
            counts = [Int32](repeating: 0, count: Self.buckets)
            for letter in word { counts[Int(letter % UInt32(Self.buckets))] += 1 }
        }

        /// The bag distance to `other`, counting down a copy of this bag in `scratch`.
        func distance(_ size: Int, _ other: [UInt32], scratch: inout Bag) -> Int {
            for bucket in 0..<Self.buckets { scratch.counts[bucket] = counts[bucket] }
            var unmatched = 0
            for letter in other {
                let bucket = Int(letter % UInt32(Self.buckets))
                if scratch.counts[bucket] > 0 { scratch.counts[bucket] -= 1 } else { unmatched += 1 }
            }
            return max(unmatched, size - (other.count - unmatched))
        }
    }

    /// The distance, or something above `bound` once the distance is known to exceed it: a row
    /// takes its values from the two above it, each plus at least one, so when two rows in a
    /// row are over the bound, every later one is too (the usual cut-off of a bounded search).
    /// `rows` is scratch, three rows of `b.count + 1` (32-bit: a word is far shorter than 2³¹
    /// letters), each row at a rotating offset so that no row is copied.
    private static func editDistance(_ a: [UInt32], _ b: [UInt32], bound: Int, rows: inout [Int32]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        if rows.count < 3 * width { rows = [Int32](repeating: 0, count: 3 * width) }
        var (previousPrevious, previous, current) = (0, width, 2 * width)
        for column in 0..<width {
            rows[previousPrevious + column] = 0
            rows[previous + column] = Int32(column)
            rows[current + column] = 0
        }
        var previousRowOver = false
        for i in 1...a.count {
            rows[current] = Int32(i)
            var rowMinimum = Int32(i)
            for j in 1...b.count {
                let cost: Int32 = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, rows[previousPrevious + j - 2] + 1)
                }
                rows[current + j] = value
                rowMinimum = min(rowMinimum, value)
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
            if Int(rowMinimum) > bound {
                if previousRowOver { return bound + 1 }
                previousRowOver = true
            } else {
                previousRowOver = false
            }
        }
        return Int(rows[previous + b.count])
    }

    /// `a, b, c` or `a, b, …` for long lists, for "expected one of" notes.
    static func list(_ words: [String], quoted: Bool = false) -> String {
        words.map { quoted ? "'\($0)'" : $0 }.joined(separator: ", ")
    }
}
