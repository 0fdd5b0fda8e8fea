import Foundation
import WebPolicyRuntime

/// A HAR 1.2 capture read as it is simulated, a block of entries at a time: a capture of any
/// size in the memory of a block, its entries read on every core, each at its exact line and
/// column. Safari's Web Inspector exports HAR, as do other browsers and proxies.
///
/// Each entry becomes a trace line: its request's URL and method, its page's main document as
/// top document, the resource type from `_resourceType` when the exporter writes one, else
/// from the response's MIME type. HAR entries carry no expectations. The `pages` list (Safari
/// names a page after its main document's URL) is read before the entries; where a capture
/// writes it after them, the entries are passed over once to find it and then read.
///
/// As with a trace, the entries before the first problem are handed out and none after it,
/// but the capture is read on for its problems.
public final class HARStream: TraceBlockSource {
    public let path: String
    public let displayPath: String
    /// The file's size, for progress.
    public let size: Int?
    public private(set) var problems: [TraceParser.Problem] = []
    /// The text of lines that have problems (where short enough to show), for snippets.
    private var problemLines: [Int: String] = [:]

    /// Entries per block: enough to keep every core busy, few enough to keep memory flat.
    public static let blockEntries = 4_096
    /// And bytes per block: a capture saved with its responses' bodies has entries of a
    /// megabyte and more.
    static let blockBytes = 16 << 20

    private enum Source {
        case file(FileHandle)
        case memory([UInt8], offset: Int)
    }
    private var source: Source
    private let readSize: Int
    private let blockSize: Int

    /// Bytes read from the source, starting at its offset `bufferOffset`; `cursor` is the
    /// next one to look at.
    private var buffer: [UInt8] = []
    private var bufferOffset = 0
    private var cursor = 0
    /// The position of the source's offset `countedOffset`: lines and columns are counted
    /// when a position is asked for (an entry's are counted on every core, with the entry).
    private var counter = JSONPositionCounter()
    private var countedOffset = 0
    private var sourceEnded = false
    /// Bytes from here on are kept when the buffer is refilled (a value being read).
    private var keepFrom: Int?

    /// Where the reading is in the document's structure.
    private enum Phase {
        case start
        /// Among the members of the root object or of `log`, after one (`afterMember`) or not.
        case root(afterMember: Bool)
        case log(afterMember: Bool)
        /// Inside the entries array, before its first entry or after one.
        case entries(first: Bool)
        case done
    }
    private var phase = Phase.start
    private var rootStart = SourcePosition(line: 1, column: 1)
    private var logStart: SourcePosition?
    private var sawLog = false
    private var sawEntries = false
    private var sawPages = false
    /// An entries array met before `pages`: where it starts, to come back once the rest of the
    /// document is read.
    private var deferredEntries: (offset: Int, counter: JSONPositionCounter)?
    /// The entries are read last, after the rest of the document: their array ends the reading.
    private var entriesEndReading = false
    /// A problem met while the entries were passed over: reported once the entries are read
    /// to their end (passing over follows only brackets and strings, so what broke the rest of
    /// the document may be a broken entry, which reading them finds first).
    private var problemAfterEntries: (problem: TraceParser.Problem, lineText: String?)?

    private var pageTitles: [String: String] = [:]
    private var topOfPage: [String: CanonicalURL] = [:]
    /// The page of the last page entry: what the simulated view shows.
    private var currentPage: String?
    /// Where a page's main document was redirected to: the next document there is that
    /// navigation going on (`page … by=redirect`), not an iframe.
    private var redirectOfPage: [String: CanonicalURL] = [:]

    public static let maximumProblems = TraceStream.maximumProblems

    /// Opens the capture at `path`.
    public init(path: String, blockEntries: Int = HARStream.blockEntries, readSize: Int = 1 << 20) throws(InputError) {
        self.path = path
        displayPath = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw InputError("no such file: \(path)") }
        if isDirectory.boolValue { throw InputError("\(path) is a directory, not a HAR capture") }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw InputError("cannot read \(path); check the file's permissions") }
        source = .file(handle)
        size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        blockSize = max(1, blockEntries)
        self.readSize = max(1, readSize)
    }

    /// A capture already in memory (tests, fuzzing), read through the same steps; small
    /// `readSize` and `blockEntries` cut it everywhere.
    public init(path: String, bytes: [UInt8], blockEntries: Int = HARStream.blockEntries, readSize: Int = 1 << 20) {
        self.path = path
        displayPath = path
        source = .memory(bytes, offset: 0)
        size = bytes.count
        blockSize = max(1, blockEntries)
        self.readSize = max(1, readSize)
    }

    deinit {
        if case .file(let handle) = source { try? handle.close() }
    }

    /// How far through the capture reading has come, in bytes.
    public var bytesRead: Int { bufferOffset + cursor }

    /// The problems' lines, for a reporter's snippets.
    public var problemSource: SourceFile { SourceFile(path: displayPath, sparseLines: problemLines) }

    /// The next block of entries as trace entries, in the file's order; nil at the end.
    public func nextEntries() -> [TraceEntry]? {
        nextRuns()?.first?.entries
    }

    func nextRuns() -> [TraceRun]? {
        while true {
            guard findNextEntry() else { return nil }
            let entries = readBlock()
            if !entries.isEmpty { return [TraceRun(entries: entries)] }
        }
    }

    // MARK: The document around the entries

    /// Reads the document's structure up to the next entry (true), or to its end (false).
    private func findNextEntry() -> Bool {
        while true {
            switch phase {
            case .done:
                return false
            case .entries:
                return true
            case .start:
                readStart()
            case .root(let afterMember):
                readRootMember(afterMember: afterMember)
            case .log(let afterMember):
                readLogMember(afterMember: afterMember)
            }
        }
    }

    private func readStart() {
        // A UTF-8 byte-order mark is passed over, as SourceFile drops it; UTF-16 is refused.
        if ensure(3), buffer[cursor] == 0xEF, buffer[cursor + 1] == 0xBB, buffer[cursor + 2] == 0xBF {
            cursor += 3
            countedOffset = bufferOffset + cursor  // the mark takes no column
        }
        if ensure(2), (buffer[cursor], buffer[cursor + 1]) == (0xFF, 0xFE) || (buffer[cursor], buffer[cursor + 1]) == (0xFE, 0xFF) {
            return fail("\(displayPath) is UTF-16 (it starts with a UTF-16 byte-order mark); HAR files must be UTF-8", at: position)
        }
        // UTF-16 without a mark: JSON's first character is ASCII, so one of its two bytes is NUL.
        if ensure(2), buffer[cursor] == 0 || buffer[cursor + 1] == 0 {
            return fail("\(displayPath) looks like UTF-16 (a NUL byte in its first character); HAR files must be UTF-8", at: position)
        }
        skipWhitespace()
        rootStart = position
        guard let first = peek() else {
            if bytesRead == 0 { return fail("\(displayPath) is empty", at: rootStart, hint: "a HAR file is the JSON that a browser's network inspector exports") }
            return fail("unexpected end of the JSON text", at: rootStart)
        }
        guard first == UInt8(ascii: "{") else {
            guard readValue() != nil else { return }
            return fail("a HAR file is an object with a 'log' object", range: SourceRange(start: rootStart, end: position))
        }
        advance(1)
        phase = .root(afterMember: false)
    }

    private func readRootMember(afterMember: Bool) {
        switch nextKey(afterMember: afterMember) {
        case .broken:
            return
        case .end:
            guard sawLog else { return fail("a HAR file is an object with a 'log' object", range: SourceRange(start: rootStart, end: position)) }
            skipWhitespace()
            if peek() != nil { return fail("unexpected text after the JSON value", at: position) }
            finishDocument()
        case .key("log") where !sawLog && peek() == UInt8(ascii: "{"):
            sawLog = true
            logStart = position
            advance(1)
            phase = .log(afterMember: false)
        case .key:
            guard readValue() != nil else { return }
            phase = .root(afterMember: true)
        }
    }

    private func readLogMember(afterMember: Bool) {
        switch nextKey(afterMember: afterMember) {
        case .broken:
            return
        case .end:
            guard sawEntries else {
                return fail("the log has no 'entries' array", range: SourceRange(start: logStart ?? rootStart, end: position))
            }
            phase = .root(afterMember: true)
        case .key("entries") where !sawEntries && peek() == UInt8(ascii: "["):
            sawEntries = true
            guard sawPages else {
                // Its pages may come later: pass over the entries, and come back.
                _ = position
                deferredEntries = (bufferOffset + cursor, counter)
                guard skipValue() else { return }
                phase = .log(afterMember: true)
                return
            }
            advance(1)
            phase = .entries(first: true)
        case .key("pages") where !sawPages:
            guard let pages = readValue() else { return }
            sawPages = true
            for page in pages.array ?? [] {
                if let id = page.member("id")?.string { pageTitles[id] = page.member("title")?.string ?? "" }
            }
            phase = .log(afterMember: true)
        case .key:
            guard readValue() != nil else { return }
            phase = .log(afterMember: true)
        }
    }

    /// The document is read to its end: done, or back to entries passed over for their pages.
    private func finishDocument() {
        guard let deferred = deferredEntries else {
            phase = .done
            return
        }
        deferredEntries = nil
        seek(to: deferred.offset, counter: deferred.counter)
        guard peek() == UInt8(ascii: "[") else { return fail("the capture changed while it was read", at: position) }
        advance(1)
        entriesEndReading = true
        phase = .entries(first: true)
    }

    private enum KeyReading: Equatable {
        case key(String)
        case end
        case broken
    }

    /// In an object, after its `{` or after a member: the next member's key (read up to its
    /// value), or the object's end (its `}` read). The messages are `JSONDocument`'s.
    private func nextKey(afterMember: Bool) -> KeyReading {
        skipWhitespace()
        if afterMember {
            if peek() == UInt8(ascii: "}") {
                advance(1)
                return .end
            }
            guard peek() == UInt8(ascii: ",") else {
                fail("expected ',' or '}'", at: position)
                return .broken
            }
            advance(1)
        } else if peek() == UInt8(ascii: "}") {
            advance(1)
            return .end
        }
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else {
            fail("expected a string key", at: position)
            return .broken
        }
        guard let key = readValue()?.string else { return .broken }
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else {
            fail("expected ':' after the key", at: position)
            return .broken
        }
        advance(1)
        skipWhitespace()
        return .key(key)
    }

    // MARK: Entries

    /// Up to a block of entries, read on every core and put together in order.
    private func readBlock() -> [TraceEntry] {
        var spans: [Range<Int>] = []
        spans.reserveCapacity(blockSize)
        // A problem of the structure after the block's entries is met before theirs are read:
        // the block's problems are put in the file's order at the end.
        let problemsBefore = problems.count
        defer { problems[problemsBefore...].sort { $0.range.start < $1.range.start } }
        // Counted up to the block; its entries, and the bytes between them, are counted with
        // the entries, on every core.
        let blockPosition = position
        let blockStart = bytesRead
        keepFrom = cursor
        defer { keepFrom = nil }
        while spans.count < blockSize, bytesRead - blockStart < Self.blockBytes, case .entries(let isFirst) = phase {
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                advance(1)
                phase = .log(afterMember: true)
                if entriesEndReading {
                    phase = .done
                    if let later = problemAfterEntries { record(later.problem, lineText: later.lineText) }
                }
                break
            }
            if !isFirst {
                guard peek() == UInt8(ascii: ",") else {
                    fail("expected ',' or ']'", at: position)
                    break
                }
                advance(1)
                skipWhitespace()
            }
            let startOffset = bufferOffset + cursor
            guard scanValue(keeping: true) else { break }
            spans.append(startOffset..<(bufferOffset + cursor))
            phase = .entries(first: false)
        }
        guard let lastOffset = spans.last?.upperBound else { return [] }
        let firstOffset = blockStart
        let bytes = Array(buffer[(firstOffset - bufferOffset)..<(lastOffset - bufferOffset)])
        // Each entry read as if it started at 1:1, with what it and the bytes before it do to
        // the line and column; put in place below, in order.
        let spansRead = spans
        let counted = Array(spans.indices).parallelMap(minimumChunk: 64) { index in
            let spans = spansRead
            let range = (spans[index].lowerBound - firstOffset)..<(spans[index].upperBound - firstOffset)
            let gapStart = index == 0 ? 0 : spans[index - 1].upperBound - firstOffset
            return bytes.withUnsafeBufferPointer { buffer in
                var gap = JSONPositionCounter(), entry = JSONPositionCounter()
                gap.advance(over: UnsafeBufferPointer(rebasing: buffer[gapStart..<range.lowerBound]))
                entry.advance(over: UnsafeBufferPointer(rebasing: buffer[range]))
                return (gap: gap, entry: entry, reading: HAREntry.read(bytes, range, at: SourcePosition(line: 1, column: 1)))
            }
        }
        var starts: [SourcePosition] = []
        starts.reserveCapacity(spans.count)
        var end = blockPosition
        for item in counted {
            let start = item.gap.position(after: end)
            starts.append(start)
            end = item.entry.position(after: start)
        }
        if countedOffset < lastOffset {
            counter = JSONPositionCounter(at: end)
            countedOffset = lastOffset
        }
        let readings = counted.indices.map { counted[$0].reading.placed(after: starts[$0]) }
        var entries: [TraceEntry] = []
        entries.reserveCapacity(readings.count)
        // Entries before the first problem are handed out, whatever block they are read in (a
        // problem of the structure after them is already known).
        var firstProblem = problems.map(\.range.start).min()
        for (index, reading) in readings.enumerated() {
            switch reading {
            case .dataURL:
                continue
            case .problem(let problem):
                let quoted = bytes.withUnsafeBufferPointer {
                    Self.lineText(of: problem.range.start.line, in: $0, from: spans[index].lowerBound - firstOffset, at: starts[index], startsALine: firstOffset == 0)
                }
                record(problem, lineText: quoted)
                firstProblem = min(firstProblem ?? problem.range.start, problem.range.start)
            case .request(let request):
                if let firstProblem, firstProblem <= starts[index] { continue }
                entries.append(traceEntry(request))
            }
        }
        return entries
    }

    /// An entry as a trace line: the first document of its page is the page, the rest its
    /// subresources.
    private func traceEntry(_ request: HAREntry) -> TraceEntry {
        var entry = TraceEntry(line: request.line, kind: .resource, typeName: request.type.rawValue, resourceType: request.type, url: request.url,
                               urlRange: request.urlRange, top: nil, method: request.method)
        let page = request.pageref
        let isDocument = request.type == .document || request.type == .topDocument
        let isRedirectHop = isDocument && redirectOfPage[page] == request.url
        if isRedirectHop || topOfPage[page] == nil && (isDocument || pageTitles[page] == request.urlText) {
            entry.kind = .page
            entry.typeName = "page"
            entry.resourceType = .topDocument
            if isRedirectHop { entry.initiator = .redirect }
            topOfPage[page] = request.url
            currentPage = page
            // A relative Location is resolved against the redirecting URL, as a browser does.
            redirectOfPage[page] = request.redirectTarget.flatMap { target in
                URL(string: target, relativeTo: URL(string: request.urlText))?.absoluteString
            }.flatMap { try? CanonicalURL.parse($0).get() }
        } else {
            // The shown page's entries are its subresources, as a page line's are (their top
            // is the page as loaded, after make-https); another page's name it with `top=`.
            entry.top = page == currentPage ? nil : topOfPage[page]
            if request.type == .document { (entry.typeName, entry.resourceType) = ("child-document", .childDocument) }
        }
        return entry
    }

    // MARK: Values

    /// The value at the cursor, parsed; nil with its problem recorded.
    private func readValue() -> JSONNode? {
        let start = position
        let startIndex = cursor
        keepFrom = startIndex
        defer { keepFrom = nil }
        let startOffset = bufferOffset + startIndex
        guard scanValue(keeping: true) else { return nil }
        let index = startOffset - bufferOffset
        switch JSONDocument.parse(bytes: Array(buffer[index..<cursor]), in: 0..<(cursor - index), startingAt: start) {
        case .success(let node):
            return node
        case .failure(let error):
            fail(error.message, at: error.position, lineText: lineText(of: error.position.line, fromBufferIndex: index, at: start))
            return nil
        }
    }

    /// Passes over the value at the cursor, its bytes let go as they are read.
    private func skipValue() -> Bool {
        scanValue(keeping: false)
    }

    /// Moves the cursor past the value at it. A value cut off by the end of the file is
    /// parsed for `JSONDocument`'s own message and position.
    private func scanValue(keeping: Bool) -> Bool {
        var scanner = JSONValueEndScanner()
        let startOffset = bufferOffset + cursor
        while true {
            let end = buffer.withUnsafeBufferPointer { scanner.end(in: UnsafeBufferPointer(rebasing: $0[cursor...])) }
            if let end {
                advance(end)
                return true
            }
            advance(buffer.count - cursor)
            if !fill() {
                if scanner.endsAtEndOfText { return true }
                // Cut off: the partial value's own message, where JSONDocument finds it.
                if keeping {
                    let index = startOffset - bufferOffset
                    let start = position(at: startOffset)
                    if case .failure(let error) = JSONDocument.parse(bytes: Array(buffer[index..<cursor]), in: 0..<(cursor - index), startingAt: start) {
                        fail(error.message, at: error.position, lineText: lineText(of: error.position.line, fromBufferIndex: index, at: start))
                        return false
                    }
                }
                fail("unexpected end of the JSON text", at: position)
                return false
            }
        }
    }

    // MARK: Bytes

    /// The byte at the cursor, reading more when needed; nil at the end of the file.
    private func peek() -> UInt8? {
        if cursor == buffer.count, !fill() { return nil }
        return buffer[cursor]
    }

    /// Whether `count` bytes are there from the cursor on (reading more when needed).
    private func ensure(_ count: Int) -> Bool {
        while buffer.count - cursor < count {
            if !fill() { return false }
        }
        return true
    }

    private func advance(_ count: Int) {
        cursor += count
    }

    /// The position of the cursor.
    private var position: SourcePosition { position(at: bufferOffset + cursor) }

    /// The position of the source's offset `offset`, counted on from the last one asked for
    /// (its bytes are still in the buffer: `fill` counts what it lets go).
    private func position(at offset: Int) -> SourcePosition {
        if offset > countedOffset {
            let (from, to) = (countedOffset - bufferOffset, offset - bufferOffset)
            buffer.withUnsafeBufferPointer { counter.advance(over: UnsafeBufferPointer(rebasing: $0[from..<to])) }
            countedOffset = offset
        }
        return counter.position
    }

    private func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance(1) }
    }

    /// Reads more of the source onto the buffer, first letting go of what is behind the
    /// cursor (and behind a value being kept); false at the end of the source.
    private func fill() -> Bool {
        guard !sourceEnded else { return false }
        // Let go of bytes only when they are half the buffer: a block's entries are kept
        // while it is read, and moving them down at every read was a tenth of the reading.
        let drop = min(cursor, keepFrom ?? cursor)
        if drop > 0, drop >= buffer.count / 2 {
            _ = position(at: bufferOffset + drop)
            buffer.removeFirst(drop)
            bufferOffset += drop
            cursor -= drop
            keepFrom = keepFrom.map { $0 - drop }
        }
        switch source {
        case .file(let handle):
            guard let data = try? handle.read(upToCount: readSize), !data.isEmpty else {
                sourceEnded = true
                return false
            }
            buffer.append(contentsOf: data)
        case .memory(let bytes, let offset):
            guard offset < bytes.count else {
                sourceEnded = true
                return false
            }
            let end = min(bytes.count, offset + readSize)
            buffer.append(contentsOf: bytes[offset..<end])
            source = .memory(bytes, offset: end)
        }
        return true
    }

    /// Back to an earlier place in the source, with its position.
    private func seek(to offset: Int, counter: JSONPositionCounter) {
        buffer.removeAll(keepingCapacity: true)
        bufferOffset = offset
        cursor = 0
        sourceEnded = false
        self.counter = counter
        countedOffset = offset
        switch source {
        case .file(let handle):
            do { try handle.seek(toOffset: UInt64(offset)) } catch { sourceEnded = true }
        case .memory(let bytes, _):
            source = .memory(bytes, offset: offset)
        }
    }

    // MARK: Problems

    /// A problem of the document's structure: reading stops there.
    /// `lineText`: the problem's line, where it is not the cursor's (a value parsed after it
    /// was read); the cursor's line is quoted otherwise.
    private func fail(_ message: String, at position: SourcePosition, hint: String? = nil, lineText: String? = nil) {
        fail(message, range: SourceRange(at: position), hint: hint, lineText: lineText)
    }

    private func fail(_ message: String, range: SourceRange, hint: String? = nil, lineText: String? = nil) {
        let problem = TraceParser.Problem(message: message, range: range, hint: hint)
        let quoted = lineText ?? lineTextAtCursor(line: range.start.line)
        if deferredEntries != nil {
            // The entries first: one of them may be what broke the rest.
            problemAfterEntries = (problem, quoted)
            return finishDocument()
        }
        record(problem, lineText: quoted)
        phase = .done
    }

    private func record(_ problem: TraceParser.Problem, lineText: String?) {
        guard problems.count < Self.maximumProblems else {
            phase = .done
            return
        }
        problems.append(problem)
        if let lineText { problemLines[problem.range.start.line] = lineText }
    }

    /// Lines longer than this are not quoted under a problem (a minified capture is one line).
    static let longestQuotedLine = 4_096

    /// The cursor's line, if it is the problem's and short enough to quote.
    private func lineTextAtCursor(line: Int) -> String? {
        guard line == position.line else { return nil }
        return buffer.withUnsafeBufferPointer { Self.lineText(around: cursor, in: $0, startsALine: bufferOffset == 0) }
    }

    /// Line `line` of a value still in the buffer, which starts at `index`, at `start`.
    private func lineText(of line: Int, fromBufferIndex index: Int, at start: SourcePosition) -> String? {
        buffer.withUnsafeBufferPointer { Self.lineText(of: line, in: $0, from: index, at: start, startsALine: bufferOffset == 0) }
    }

    /// Line `line` of an entry's text, which starts at `from` in `bytes`, at `start`.
    static func lineText(of line: Int, in bytes: UnsafeBufferPointer<UInt8>, from: Int, at start: SourcePosition, startsALine: Bool) -> String? {
        var counter = JSONPositionCounter()
        var index = from
        var current = start.line
        while current < line, index < bytes.count {
            counter.advance(over: UnsafeBufferPointer(rebasing: bytes[index..<(index + 1)]))
            index += 1
            if counter.column == 1 { current = start.line + counter.line - 1 }
        }
        guard current == line else { return nil }
        return lineText(around: index, in: bytes, startsALine: startsALine)
    }

    /// The line around `index`, when its breaks are near enough on both sides; the bytes'
    /// start counts as one only where it `startsALine` (a block of entries starts mid-line).
    private static func lineText(around index: Int, in bytes: UnsafeBufferPointer<UInt8>, startsALine: Bool) -> String? {
        guard index >= 0, index <= bytes.count else { return nil }
        var lower = index
        while lower > 0, bytes[lower - 1] != 0x0A, bytes[lower - 1] != 0x0D {
            lower -= 1
            if index - lower > longestQuotedLine { return nil }
        }
        if lower == 0, !startsALine { return nil }
        var upper = index
        while upper < bytes.count, bytes[upper] != 0x0A, bytes[upper] != 0x0D {
            upper += 1
            if upper - lower > longestQuotedLine { return nil }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self)
        return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    }
}
