import URLFilter
import Foundation

/// The text of one input file with a line table, for positions and source snippets.
///
/// Line breaks are the ones libyaml counts (`\r\n`, `\r`, `\n`, U+0085, U+2028, U+2029), so
/// the line numbers of YAML marks and of this table always agree. A leading byte-order mark is
/// dropped, as libyaml drops it before counting columns.
public final class SourceFile: @unchecked Sendable {
    public let path: String
    public let text: String
    /// Index of the first scalar of each line, built on first use: linting a large clean file
    /// never needs it.
    private var lineStartsCache: [String.Index]?
    /// Per long line, where every 256th scalar starts, built the first time a column of it is
    /// asked for: a minified list is one line of megabytes, and a report quotes it at
    /// thousands of columns.
    private var longLines: [Int: LongLine] = [:]
    private let lock = NSLock()

    /// What `line(_:fromColumn:)` needs of a long line to jump to a column.
    private struct LongLine {
        /// Scalars in the line, its break excluded.
        var length: Int
        /// The index of scalar 256 × k of the line.
        var checkpoints: [String.Index]
    }

    /// Lines shorter than this (in bytes) are walked; longer ones get checkpoints.
    private static let longLineBytes = 1_024
    private static let checkpointStride = 256

    /// Lines by number, for a file that was never held whole (a streamed trace): only the
    /// lines a report quotes.
    private let sparseLines: [Int: String]?

    public init(path: String, text: String) {
        self.path = path
        self.text = text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
        sparseLines = nil
    }

    public init(path: String, sparseLines: [Int: String]) {
        self.path = path
        text = ""
        self.sparseLines = sparseLines
    }

    private var lineStarts: [String.Index] {
        lock.lock()
        defer { lock.unlock() }
        if let cached = lineStartsCache { return cached }
        let starts = Self.lineStarts(of: text)
        lineStartsCache = starts
        return starts
    }

    /// Scans bytes, not scalars: the breaks are \r, \n, C2 85, E2 80 A8 and E2 80 A9.
    private static func lineStarts(of body: String) -> [String.Index] {
        var bytes = body  // `withUTF8` needs a var; a native string is not copied
        let offsets = bytes.withUTF8(lineStartOffsets)
        let utf8 = body.utf8
        return offsets.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }

    /// The UTF-8 offsets at which lines start.
    private static func lineStartOffsets(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        if let base = bytes.baseAddress, memchr(base, 0x0D, bytes.count) == nil, memchr(base, 0xC2, bytes.count) == nil, memchr(base, 0xE2, bytes.count) == nil {
            // Nearly every file breaks lines with \n alone: then the C library's vector scan
            // finds them.
            func breaks(_ each: (Int) -> Void) {
                var start = 0
                while start < bytes.count, let hit = memchr(base + start, 0x0A, bytes.count - start) {
                    start = UnsafeRawPointer(hit) - UnsafeRawPointer(base) + 1
                    each(start)
                }
            }
            // Counted first, so the table is allocated once, at its size.
            var count = 1
            breaks { _ in count += 1 }
            var offsets: [Int] = []
            offsets.reserveCapacity(count)
            offsets.append(0)
            breaks { offsets.append($0) }
            return offsets
        }
        var offsets = [0]
        var index = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while index < bytes.count {
            // Eight ASCII bytes above \r at a time: no break, and no lead of one, among them
            // (a byte under 0x0E shows as a borrow into its top bit; the test is exact for ASCII).
            if index + 8 <= bytes.count {
                let word = EightBytes.load(raw.baseAddress.unsafelyUnwrapped + index)
                if word & EightBytes.highBits == 0 && EightBytes.asciiBytes(below: 0x0E, in: word) == 0 {
                    index += 8
                    continue
                }
            }
            let byte = bytes[index]
            index += 1
            // Most bytes are neither a break nor the lead of one.
            if byte > 0x0D && byte < 0xC2 { continue }
            switch byte {
            case 0x0A:
                if index >= 2 && bytes[index - 2] == 0x0D { offsets[offsets.count - 1] = index } else { offsets.append(index) }
            case 0x0D:
                offsets.append(index)
            case 0xC2 where index < bytes.count && bytes[index] == 0x85:
                index += 1
                offsets.append(index)
            case 0xE2 where index + 1 < bytes.count && bytes[index] == 0x80 && (bytes[index + 1] == 0xA8 || bytes[index + 1] == 0xA9):
                index += 2
                offsets.append(index)
            default:
                break
            }
        }
        return offsets
    }

    public var lineCount: Int { sparseLines.map { $0.keys.max() ?? 1 } ?? lineStarts.count }

    /// The text of a 1-based line, without its line break; empty past the end.
    public func line(_ number: Int) -> Substring.UnicodeScalarView {
        if let sparseLines { return Substring(sparseLines[number] ?? "").unicodeScalars }
        let lineStarts = self.lineStarts  // once: each read takes the lock
        guard number >= 1, number <= lineStarts.count else { return Substring.UnicodeScalarView() }
        let scalars = text.unicodeScalars
        let start = lineStarts[number - 1]
        var end = number < lineStarts.count ? lineStarts[number] : scalars.endIndex
        while end > start, Self.isLineBreak(scalars[scalars.index(before: end)]) {
            end = scalars.index(before: end)
        }
        return Substring(text)[start..<end].unicodeScalars
    }

    /// The scalars of a 1-based line from `column` (1-based, clamped) to its end, and the
    /// line's length in scalars: a report quoting a window of a line of megabytes reads the
    /// window, not the line before it.
    public func line(_ number: Int, fromColumn column: Int) -> (scalars: Substring.UnicodeScalarView, length: Int) {
        let whole = line(number)
        if sparseLines != nil || whole.isEmpty { return (whole.dropFirst(max(column - 1, 0)), whole.count) }
        let scalars = text.unicodeScalars
        guard text.utf8.distance(from: whole.startIndex, to: whole.endIndex) >= Self.longLineBytes else {
            return (whole.dropFirst(max(column - 1, 0)), whole.count)
        }
        let long = longLine(number, whole)
        let target = min(max(column - 1, 0), long.length)
        var index = long.checkpoints[target / Self.checkpointStride]
        for _ in 0..<(target % Self.checkpointStride) { index = scalars.index(after: index) }
        return (whole[index...], long.length)
    }

    private func longLine(_ number: Int, _ whole: Substring.UnicodeScalarView) -> LongLine {
        lock.lock()
        defer { lock.unlock() }
        if let known = longLines[number] { return known }
        var checkpoints: [String.Index] = []
        var length = 0
        var index = whole.startIndex
        while index < whole.endIndex {
            if length % Self.checkpointStride == 0 { checkpoints.append(index) }
            length += 1
            index = whole.index(after: index)
        }
        if length % Self.checkpointStride == 0 { checkpoints.append(whole.endIndex) }
        let long = LongLine(length: length, checkpoints: checkpoints)
        longLines[number] = long
        return long
    }

    /// The string index of a position, clamped to the file.
    public func index(of position: SourcePosition) -> String.Index {
        let scalars = text.unicodeScalars
        let lineStarts = self.lineStarts
        guard position.line >= 1 else { return scalars.startIndex }
        guard position.line <= lineStarts.count else { return scalars.endIndex }
        let start = lineStarts[position.line - 1]
        let limit = position.line < lineStarts.count ? lineStarts[position.line] : scalars.endIndex
        return scalars.index(start, offsetBy: max(position.column - 1, 0), limitedBy: limit) ?? limit
    }

    /// Where each range of whole lines lies in the text's UTF-8 bytes (from the start of its
    /// first line to the start of the line after it; 1-based) and a hash of those bytes, on
    /// every core: what a memo of a file's parts keys them by. Nil for a range past the text.
    package func lineRangeDigests(_ ranges: [Range<Int>?]) -> [(start: Int, length: Int, digest: Int)?] {
        let utf8 = text.utf8
        let offsets = lineStarts.map { utf8.distance(from: utf8.startIndex, to: $0) }
        let total = utf8.count
        return utf8.withContiguousStorageIfAvailable { bytes in
            nonisolated(unsafe) let bytes = bytes
            return ranges.parallelMap { range -> (start: Int, length: Int, digest: Int)? in
                guard let range, range.lowerBound >= 1, range.lowerBound <= offsets.count, range.upperBound > range.lowerBound else { return nil }
                let start = offsets[range.lowerBound - 1], end = range.upperBound <= offsets.count ? offsets[range.upperBound - 1] : total
                var hasher = Hasher()
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end])))
                return (start, end - start, hasher.finalize())
            }
        } ?? ranges.map { _ in nil }
    }

    /// Whether the text's UTF-8 bytes from `start` are `bytes`.
    package func hasBytes(_ bytes: [UInt8], at start: Int) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { text in
            start >= 0 && start + bytes.count <= text.count
                && bytes.withUnsafeBufferPointer { bytes.isEmpty || memcmp($0.baseAddress!, text.baseAddress! + start, bytes.count) == 0 }
        } ?? false
    }

    /// `length` of the text's UTF-8 bytes from `start`.
    package func bytes(at start: Int, length: Int) -> [UInt8] {
        let utf8 = text.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: start)
        return Array(utf8[from..<utf8.index(from, offsetBy: length)])
    }

    /// The position of the start of the file.
    public var startPosition: SourcePosition { SourcePosition(line: 1, column: 1) }

    /// The position just after the last character.
    public var endPosition: SourcePosition {
        if sparseLines != nil {
            let last = lineCount
            return SourcePosition(line: last, column: line(last).count + 1)
        }
        // The last line never ends in a break (a break starts another line), so its column
        // count is its scalar count: counted in bytes, as a fuzzed file can be one long line.
        let lineStarts = self.lineStarts
        return SourcePosition(line: lineStarts.count, column: Self.scalarCount(Substring(text)[lineStarts[lineStarts.count - 1]...]) + 1)
    }

    /// Unicode scalars in `text`: UTF-8 bytes that are not continuation bytes (10xxxxxx),
    /// eight at a time. (libyaml's `mark.index` counts the same.)
    package static func scalarCount<Text: StringProtocol>(_ text: Text) -> Int {
        func count(_ bytes: UnsafeRawBufferPointer) -> Int {
            var continuations = 0
            var offset = 0
            while offset + 8 <= bytes.count {
                continuations += EightBytes.continuationBytes(EightBytes.load(bytes.baseAddress.unsafelyUnwrapped + offset))
                offset += 8
            }
            for byte in bytes[offset...] where byte & 0xC0 == 0x80 { continuations += 1 }
            return bytes.count - continuations
        }
        return text.utf8.withContiguousStorageIfAvailable { count(UnsafeRawBufferPointer($0)) }
            ?? Array(text.utf8).withUnsafeBytes(count)
    }

    public func location(_ range: SourceRange) -> SourceLocation {
        SourceLocation(path: path, range: range)
    }

    public func location(at position: SourcePosition) -> SourceLocation {
        SourceLocation(path: path, range: SourceRange(at: position))
    }

    package static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\r", "\n", "\u{85}", "\u{2028}", "\u{2029}": return true
        default: return false
        }
    }
}
