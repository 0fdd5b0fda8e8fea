import Testing
@testable import URLFilter

/// Determinising finds a state's id by a linear search while a DFA has few states and through
/// a table once it has more: a filter whose DFA has many states still matches exactly the URLs
/// the filter describes.
@Suite("DFA states past the linear search")
struct DeterminizeTests {
    /// `a` then five of anything, at the end: the DFA remembers where each of the last six
    /// bytes was an `a`, 64 states.
    @Test func aDFAOfManyStatesMatchesExactlyWhatTheFilterDescribes() throws {
        guard case .filter(let parsed) = URLFilterParser.parse("a.....$") else {
            Issue.record("the filter does not parse")
            return
        }
        let compiled = CompiledURLFilter(parsed)
        guard case .dfa(_, let classCount, let transitions, _) = compiled.tables else {
            Issue.record("the filter has no DFA")
            return
        }
        // Every subset once: 64 remembered windows, the start, the dead and the matched state.
        #expect(transitions.count / classCount == 67, "\(transitions.count / classCount) states")
        var random = SplitMix64(state: 0xDFA)
        for _ in 0..<3_000 {
            let length = Int(random.next() % 14)
            var url = Array("https://x/".utf8)
            for _ in 0..<length { url.append(random.next() % 2 == 0 ? UInt8(ascii: "a") : UInt8(ascii: "b")) }
            // `a.....$`: an `a` six bytes before the end.
            let expected = url.count >= 6 && url[url.count - 6] == UInt8(ascii: "a")
            #expect(url.withUnsafeBufferPointer { compiled.matches($0) } == expected, "\(String(decoding: url, as: UTF8.self))")
        }
    }
}
