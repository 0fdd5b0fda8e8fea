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
        let reference = Text.isComparable(pattern) ? try? NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive]) : nil
        // ICU backtracks; webpolicy's automaton does not. A URL on which the pattern's
        // backtracking could explode is not handed to ICU (issue 29: `.*.*.*.*.*#*.Dic*.*.` on a
        // 150-byte URL ran past libFuzzer's timeout inside ICU), and is counted.
        let cost = reference.map { _ in ReferenceBudget.Cost(pattern) }
        for url in urls {
            let matches = filter.matches(url)
            Invariant.check((matcher.matches(url) == [0]) == matches, "'\(pattern)' on '\(url)': the filter says \(matches), a matcher of it the opposite")
            guard let reference, let cost, Text.isPrintableASCII(url) else { continue }
            guard cost.allows(urlLength: url.utf8.count) else {
                ReferenceBudget.skipped += 1
                continue
            }
            ReferenceBudget.compared += 1
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

/// How much backtracking ICU's matcher may need for a pattern over a URL of a length: each
/// quantifier that can repeat without bound (`*`, `+`, `{n,}`, or more than 16 times)
/// multiplies the attempts at each start by about the URL's length, a bounded one by its
/// count; a quantified group that holds an unbounded quantifier is exponential. Above the
/// budget the comparison with ICU is skipped — webpolicy's own matcher and the matcher of it
/// are still compared on every URL.
enum ReferenceBudget {
    nonisolated(unsafe) static var compared = 0
    nonisolated(unsafe) static var skipped = 0
    static let maximumSteps = 50_000_000.0

    struct Cost {
        var unbounded = 0
        var boundedFactor = 1.0
        var exponential = false

        init(_ pattern: String) {
            let characters = Array(pattern)
            var groups: [Bool] = []  // per open group: whether it holds an unbounded quantifier
            var lastAtomWasGroup = false, lastGroupUnbounded = false
            var index = 0, inClass = false
            func quantified(unbounded isUnbounded: Bool, factor: Double) {
                if lastAtomWasGroup && lastGroupUnbounded && isUnbounded { exponential = true }
                if isUnbounded {
                    unbounded += 1
                    if !groups.isEmpty { groups[groups.count - 1] = true }
                } else {
                    boundedFactor = min(boundedFactor * factor, 1e300)
                }
                lastAtomWasGroup = false
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
                    quantified(unbounded: true, factor: 1)
                case "?":
                    quantified(unbounded: false, factor: 2)
                case "{":
                    guard let close = characters[index...].firstIndex(of: "}") else { break }
                    let bounds = String(characters[index..<close]).split(separator: ",", omittingEmptySubsequences: false)
                    index = close + 1
                    let upper = bounds.count == 2 ? Int(bounds[1]) : Int(bounds.first ?? "")
                    quantified(unbounded: upper.map { $0 > 16 } ?? true, factor: Double((upper ?? 0) + 1))
                default:
                    lastAtomWasGroup = false
                }
            }
        }

        /// Whether ICU's worst case on a URL of this length stays within the budget.
        func allows(urlLength: Int) -> Bool {
            guard !exponential else { return false }
            let length = Double(urlLength + 1)
            return pow(length, Double(unbounded + 1)) * boundedFactor <= ReferenceBudget.maximumSteps
        }
    }
}

// The run's count of comparisons, beside libFuzzer's final stats (ci/fuzz/run.sh reads it).
atexit {
    FileHandle.standardError.write(Data("stat::reference_comparisons: \(ReferenceBudget.compared)\nstat::reference_comparisons_skipped: \(ReferenceBudget.skipped)\n".utf8))
}

Fuzzer.run { start, count in fuzzURLFilter(start, count) }
