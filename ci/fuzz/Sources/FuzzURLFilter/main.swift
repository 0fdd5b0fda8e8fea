import Foundation
import FuzzCommon
import URLFilter

// The url-filter parser and matcher. The first line is the pattern, the next lines URLs (at
// most eight). Parsing twice gives the same result; a rejection's span lies in the pattern; a
// filter matches each URL as a matcher built of it does and — for printable ASCII, where
// WebKit's subset means the same as ICU's regex — as NSRegularExpression does (the reference
// the property tests use, Tests/URLFilterTests/URLFilterMatcherTests.swift).


func fuzzURLFilter(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let lines = text(start, count).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let pattern = lines[0]
    // The input's length picks the case: both get fuzzed, and a reproducer keeps its own.
    let caseSensitive = count % 2 == 1
    let result = URLFilterParser.parse(pattern, caseSensitive: caseSensitive)
    Invariant.check(URLFilterParser.parse(pattern, caseSensitive: caseSensitive) == result, "'\(pattern)' parses differently twice")
    let urls = lines.dropFirst().prefix(8)
    switch result {
    case .rejected(let problem):
        let scalars = pattern.unicodeScalars.count
        Invariant.check(problem.span.offset >= 0 && problem.span.offset + problem.span.length <= max(scalars, 1), "'\(pattern)': span \(problem.span) outside \(scalars) scalars")
    case .matchesEverything:
        let matcher = URLFilterMatcher([result])
        for url in urls { Invariant.check(matcher.matches(url) == [0], "'\(pattern)' matches everything, but not '\(url)'") }
    case .filter(let parsed):
        Invariant.check(!parsed.terms.isEmpty, "'\(pattern)': a filter without terms")
        let filter = CompiledURLFilter(parsed)
        let matcher = URLFilterMatcher([result])
        var reference = Text.isComparable(pattern) ? try? NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive]) : nil
        // ICU backtracks; webpolicy's automaton does not. A pattern whose backtracking can
        // explode on these URLs is not handed to ICU (issue 29: `.*.*.*.*.*#*.Dic*.*.` on a
        // 150-byte URL ran past libFuzzer's timeout inside ICU), and is counted.
        if reference != nil {
            if ReferenceBudget.allows(pattern, longestURL: urls.map(\.utf8.count).max() ?? 0) {
                ReferenceBudget.compared += 1
            } else {
                ReferenceBudget.skipped += 1
                reference = nil
            }
        }
        for url in urls {
            let matches = filter.matches(url)
            Invariant.check((matcher.matches(url) == [0]) == matches, "'\(pattern)' on '\(url)': the filter says \(matches), a matcher of it the opposite")
            guard let reference, Text.isPrintableASCII(url) else { continue }
            let expected = reference.firstMatch(in: url, range: NSRange(url.startIndex..., in: url)) != nil
            Invariant.check(matches == expected, "'\(pattern)'\(caseSensitive ? " (case-sensitive)" : "") on '\(url)': webpolicy says \(matches), the reference \(expected)")
        }
    }
    return 0
}

enum Text {
    static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Whether ICU reads the pattern as WebKit's Yarr does. They part inside character
    /// classes: Yarr (JavaScript) reads `[]` as a class of nothing and `[^]` as any character,
    /// where ICU reads the `]` as a member; and ICU reads `[` inside a class as a nested set
    /// (with `&&` and `--` as set operations), where Yarr reads a `[`. And an escaped letter or
    /// digit is ICU's own (`\\Z`: the end of the input) where Yarr may read the letter itself.
    /// (All three found by this target: `^[^]:]+://`, `[^^[^:]+`, `\\ZZ`.)
    static func isComparable(_ pattern: String) -> Bool {
        guard isPrintableASCII(pattern) else { return false }
        var inClass = false, escaped = false, previous: Character = " ", classStart = true
        for character in pattern {
            defer { previous = character }
            if escaped {
                if character.isLetter || character.isNumber { return false }
                escaped = false
                classStart = false
                continue
            }
            if character == "\\" { escaped = true; continue }
            if !inClass {
                if character == "[" { inClass = true; classStart = true }
                continue
            }
            if character == "]" && classStart { return false }
            if character == "^" && classStart && previous == "[" { continue }
            classStart = false
            if character == "[" || (character == "&" && previous == "&") || (character == "-" && previous == "-") { return false }
            if character == "]" { inClass = false }
        }
        return true
    }
}

/// How much backtracking ICU's matcher may need for a pattern over URLs of a length: each
/// quantifier that can repeat without bound (`*`, `+`, `{n,}`, or more than 16 times)
/// multiplies the attempts at each start by about the URL's length, a bounded one by its
/// count; a quantified group that holds such a quantifier is exponential. Above the budget
/// the reference comparison is skipped — webpolicy's own matcher and the matcher of it are
/// still compared on every input.
enum ReferenceBudget {
    nonisolated(unsafe) static var compared = 0
    nonisolated(unsafe) static var skipped = 0
    static let maximumSteps = 20_000_000.0

    static func allows(_ pattern: String, longestURL: Int) -> Bool {
        let characters = Array(pattern)
        let length = Double(longestURL + 1)
        var steps = length  // every start position
        var groups: [Bool] = []  // per open group: whether it holds an unbounded quantifier
        var lastAtomWasGroup = false, lastGroupUnbounded = false
        var index = 0, inClass = false
        func quantified(unbounded: Bool, factor: Double) -> Bool {
            if lastAtomWasGroup && lastGroupUnbounded && unbounded { return false }
            steps *= unbounded ? length : factor
            if unbounded, !groups.isEmpty { groups[groups.count - 1] = true }
            return steps <= maximumSteps
        }
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == "\\" {
                index += 1
                lastAtomWasGroup = false
                continue
            }
            if inClass {
                if character == "]" { inClass = false }
                continue
            }
            switch character {
            case "[":
                inClass = true
                lastAtomWasGroup = false
            case "(":
                groups.append(false)
                lastAtomWasGroup = false
            case ")":
                lastGroupUnbounded = groups.popLast() ?? false
                if lastGroupUnbounded, !groups.isEmpty { groups[groups.count - 1] = true }
                lastAtomWasGroup = true
            case "*", "+":
                guard quantified(unbounded: true, factor: 1) else { return false }
                lastAtomWasGroup = false
            case "?":
                guard quantified(unbounded: false, factor: 2) else { return false }
                lastAtomWasGroup = false
            case "{":
                guard let close = characters[index...].firstIndex(of: "}") else { break }
                let bounds = String(characters[index..<close]).split(separator: ",", omittingEmptySubsequences: false)
                index = close + 1
                let upper = bounds.count == 2 ? Int(bounds[1]) : Int(bounds.first ?? "")
                let unbounded = upper.map { $0 > 16 } ?? true
                guard quantified(unbounded: unbounded, factor: Double((upper ?? 0) + 1)) else { return false }
                lastAtomWasGroup = false
            default:
                lastAtomWasGroup = false
            }
        }
        return true
    }
}

// The run's count of comparisons, beside libFuzzer's final stats (ci/fuzz/run.sh reads it).
atexit {
    FileHandle.standardError.write(Data("stat::reference_comparisons: \(ReferenceBudget.compared)\nstat::reference_comparisons_skipped: \(ReferenceBudget.skipped)\n".utf8))
}

Fuzzer.run { start, count in fuzzURLFilter(start, count) }
