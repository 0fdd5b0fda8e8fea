import URLFilter
import WebPolicyRuntime

/// What WebKit's parser made of each url regex in the last lints, kept for the next: an editor
/// re-lints a policy after every keystroke, and an imported block list's 100,000 url-filters
/// are all but one the same as a moment ago. Regexes typed since are added; when the memo
/// holds twice a policy's regexes it starts again from the last lint's, so it stays as large
/// as one policy's regexes however long the editing goes on.
public final class URLFilterParseMemo: @unchecked Sendable {
    struct Key: Hashable, Sendable {
        var pattern: String
        var caseSensitive: Bool
    }

    private var known: [Key: URLFilterParseResult] = [:]

    public init() {}

    /// How many parses the memo holds.
    var count: Int { known.count }

    /// Each key's parse: the memo's, or WebKit's parser's now (in parallel). Called by one
    /// lint at a time.
    func results(for keys: [Key]) -> [URLFilterParseResult] {
        let found = lookUp(keys)
        var results: [URLFilterParseResult] = []
        results.reserveCapacity(keys.count)
        for (key, result) in zip(keys, found) {
            if !result.known { known[key] = result.value }
            results.append(result.value)
        }
        if known.count > 2 * keys.count + 1_024 {
            known = Dictionary(zip(keys, results), uniquingKeysWith: { first, _ in first })
        }
        return results
    }

    /// A function of its own, so the copy of `known` the threads read is let go of before the
    /// memo adds to it (else the addition copies the whole table).
    private func lookUp(_ keys: [Key]) -> [(value: URLFilterParseResult, known: Bool)] {
        let table = known
        return keys.parallelMap { key in
            if let value = table[key] { return (value, true) }
            return (URLFilterParser.parse(key.pattern, caseSensitive: key.caseSensitive), false)
        }
    }
}
