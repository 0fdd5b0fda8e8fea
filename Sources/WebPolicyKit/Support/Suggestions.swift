import WebPolicyRuntime

/// "Did you mean …?" for misspelled keys, values and rule ids.
///
/// The search runs for every unknown key a policy has, so it works in one scratch buffer on
/// the stack: no allocation per candidate, and ASCII words (nearly all) are compared byte by
/// byte without decoding scalars.
enum Suggestions {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a typo:
    /// at most a third of the word's length (and at least one) edits away.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        let typed = Letters(typed: word)
        // Lowercasing a scalar gives at most three: a candidate fits in three times its bytes.
        let longest = 3 * (candidates.lazy.map(\.utf8.count).max() ?? 0)
        // Three buffers, not one: each stays under the size the standard library is sure to
        // put on the stack (1 KB) for the keys and ids of webpolicy's lists.
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: typed.capacity + longest) { letters in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * Bag.buckets) { bags in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * (longest + 1)) { rows in
                    search(typed, candidates, limit: limit, letters: letters, bags: bags, rows: rows)
                }
            }
        }
    }

    /// `closest` in the buffers it allocated: `letters` for the typed word and then each
    /// candidate, `bags` for the typed word's bag and a scratch copy, `rows` for the table.
    private static func search(_ typed: Letters, _ candidates: [String], limit: Int, letters: UnsafeMutableBufferPointer<UInt32>,
                               bags: UnsafeMutableBufferPointer<Int32>, rows: UnsafeMutableBufferPointer<Int32>) -> String? {
        let typedCount = typed.write(into: UnsafeMutableBufferPointer(rebasing: letters[..<typed.capacity]))
        let typedLetters = UnsafeBufferPointer(rebasing: letters[..<typedCount])
        let otherSpace = UnsafeMutableBufferPointer(rebasing: letters[typed.capacity...])
        let typedBag = UnsafeMutableBufferPointer(rebasing: bags[..<Bag.buckets])
        let bagScratch = UnsafeMutableBufferPointer(rebasing: bags[Bag.buckets...])
        Bag.count(typedLetters, into: typedBag)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let bound = min(limit, (best?.distance ?? Int.max) - 1)
            // The distance is at least the difference in length: most candidates stop here.
            guard abs(SourceFile.scalarCount(candidate) - typedCount) <= bound else { continue }
            let other = UnsafeBufferPointer(rebasing: otherSpace[..<Letters(candidate: candidate).write(into: otherSpace)])
            // Then the letters the two do not share, in a linear pass, before the table.
            guard Bag.distance(UnsafeBufferPointer(typedBag), typedCount, other, scratch: bagScratch) <= bound else { continue }
            let distance = editDistance(typedLetters, other, bound: bound, rows: rows)
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Levenshtein distance over Unicode scalars, with transpositions costing one edit.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = lhs.unicodeScalars.map(\.value)
        let b = rhs.unicodeScalars.map(\.value)
        var rows = [Int32](repeating: 0, count: 3 * (b.count + 1))
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                rows.withUnsafeMutableBufferPointer { editDistance(a, b, bound: Int.max - 1, rows: $0) }
            }
        }
    }

    /// A word's lowercased scalars, as the search compares them.
    private struct Letters {
        /// The text to write: the typed word lowercased as a whole (as `lowercased()` does it,
        /// context and all), a candidate as written, lowercased scalar by scalar.
        private let text: String
        private let lowercaseEachScalar: Bool
        /// ASCII: the bytes are the scalars.
        private let isASCII: Bool
        /// Room enough for the typed word's letters (already lowercased: a scalar each).
        var capacity: Int { text.utf8.count }

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

        /// Writes the lowercased scalars and returns how many.
        @discardableResult
        func write(into buffer: UnsafeMutableBufferPointer<UInt32>) -> Int {
            var written = 0
            if isASCII {
                for byte in text.utf8 {
                    buffer[written] = UInt32(lowercaseEachScalar && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
                    written += 1
                }
                return written
            }
            for scalar in text.unicodeScalars {
                if !lowercaseEachScalar || scalar.isASCII {
                    buffer[written] = lowercaseEachScalar && ("A"..."Z").contains(scalar) ? scalar.value | 0x20 : scalar.value
                    written += 1
                } else {
                    for lower in String(scalar).lowercased().unicodeScalars {
                        buffer[written] = lower.value
                        written += 1
                    }
                }
            }
            return written
        }
    }

    /// A word's letters counted in 64 buckets. The bag distance (letters one word has and the
    /// other lacks, the larger side) is at most the edit distance — each edit changes it by at
    /// most one, a transposition not at all — and letters sharing a bucket only lower it, so it
    /// stays a lower bound.
    private enum Bag {
        static let buckets = 64

        static func count(_ word: UnsafeBufferPointer<UInt32>, into counts: UnsafeMutableBufferPointer<Int32>) {
            counts.update(repeating: 0)
            for letter in word { counts[Int(letter % UInt32(buckets))] += 1 }
        }

        static func distance(_ counts: UnsafeBufferPointer<Int32>, _ size: Int, _ other: UnsafeBufferPointer<UInt32>, scratch: UnsafeMutableBufferPointer<Int32>) -> Int {
            _ = scratch.update(fromContentsOf: counts)
            var unmatched = 0
            for letter in other {
                let bucket = Int(letter % UInt32(buckets))
                if scratch[bucket] > 0 { scratch[bucket] -= 1 } else { unmatched += 1 }
            }
            return max(unmatched, size - (other.count - unmatched))
        }
    }

    /// The distance, or something above `bound` once the distance is known to exceed it: a row
    /// takes its values from the two above it, each plus at least one, so when two rows in a
    /// row are over the bound, every later one is too (the usual cut-off of a bounded search).
    /// `rows` holds three rows of `b.count + 1` (32-bit: a word is far shorter than 2³¹ letters).
    private static func editDistance(_ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>, bound: Int, rows: UnsafeMutableBufferPointer<Int32>) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        var previousPrevious = UnsafeMutableBufferPointer(rebasing: rows[0..<width])
        var previous = UnsafeMutableBufferPointer(rebasing: rows[width..<(2 * width)])
        var current = UnsafeMutableBufferPointer(rebasing: rows[(2 * width)..<(3 * width)])
        previousPrevious.update(repeating: 0)
        for column in 0..<width { previous[column] = Int32(column) }
        current.update(repeating: 0)
        var previousRowOver = false
        for i in 1...a.count {
            current[0] = Int32(i)
            var rowMinimum = Int32(i)
            for j in 1...b.count {
                let cost: Int32 = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
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
        return Int(previous[b.count])
    }

    /// `a, b, c` or `a, b, …` for long lists, for "expected one of" notes.
    static func list(_ words: [String], quoted: Bool = false) -> String {
        words.map { quoted ? "'\($0)'" : $0 }.joined(separator: ", ")
    }
}
