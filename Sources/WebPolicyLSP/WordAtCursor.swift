/// The word at the cursor, as completion replaces it and hover names it: letters and digits,
/// and the punctuation a place lets into a word (a key's and a value's `-`, a value's `_` and
/// `.`; a role's name takes no `.`, so `${se` is completed from `se`).
struct WordAtCursor {
    /// The punctuation this place counts in a word.
    let punctuation: Set<Unicode.Scalar>

    /// Keys and values as completion types them: `app-bound-domains`, `third_party`, `v1.2`.
    static let schema = WordAtCursor(punctuation: ["-", "_", "."])
    /// A role's name inside `${…}`.
    static let role = WordAtCursor(punctuation: ["-", "_"])
    /// A value that names a WebKit construct: `css-display-none`, `if-frame-url`.
    static let construct = WordAtCursor(punctuation: ["-"])

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") || punctuation.contains(scalar)
    }

    /// Where the word that ends at `end` starts in `scalars`.
    func start(in scalars: [Unicode.Scalar], endingAt end: Int) -> Int {
        var start = end
        while start > 0, contains(scalars[start - 1]) { start -= 1 }
        return start
    }

    /// The word around `index` in `scalars` (its first and last index); nil when `index` is in none.
    func around(_ index: Int, in scalars: [Unicode.Scalar]) -> ClosedRange<Int>? {
        guard index >= 0, index < scalars.count, contains(scalars[index]) else { return nil }
        var end = index
        while end + 1 < scalars.count, contains(scalars[end + 1]) { end += 1 }
        return start(in: scalars, endingAt: index)...end
    }
}
