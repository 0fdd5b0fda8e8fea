import Foundation
import URLFilter
import WebPolicyRuntime

/// A trace read a block of lines at a time, from a file or standard input (`-`), so that a
/// trace of any size simulates in the memory of one block. Lines are parsed on every core;
/// the order of entries, problems and results stays the file's.
///
/// What `SourceReader` checks of a whole file is checked here per block, at the line and
/// column where it goes wrong: a UTF-16 byte-order mark, NUL bytes (a binary file), bytes that
/// are not UTF-8, and a file with nothing in it.
public final class TraceStream {
    /// As given on the command line (`-` for standard input).
    public let path: String
    /// How the path is shown in messages and results: the path, `<stdin>`, or the trace an
    /// `origin:` first line names.
    public private(set) var displayPath: String
    public private(set) var assembler: TraceParser.Assembler
    /// The text of lines that have problems, for the reporter's snippets.
    public private(set) var problemLines: [Int: String] = [:]
    /// Set when reading stops early: the file is unreadable, binary, or has a line too long.
    public private(set) var isFinished = false
    /// Bytes handed out in blocks so far: how far through the input reading has come.
    public private(set) var bytesRead = 0
    /// The file's size, for progress; nil for standard input.
    public let size: Int?

    /// A line longer than this ends the trace with an error: no trace line is, and a file
    /// without line breaks must not be read whole.
    public static let maximumLineLength = 1 << 20
    /// Lines per block: enough to keep every core busy, few enough to keep memory flat.
    public static let blockLines = 16_384

    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    private var atEnd = false
    private var nextLine = 1
    private var sawText = false
    /// Whether the first line has been looked at for an `origin:`.
    private var isOriginChecked = false
    private var isFirstRead = true
    /// A `\r` ended the previous block: a `\n` starting this one belongs to it.
    private var pendingCarriageReturn = false
    /// The bytes of the last block, room for the next one's: grown line by line, a block was
    /// copied to a larger buffer a dozen times.
    private var lastBlockBytes = 0

    /// Lines per block and bytes per read; small values let tests cross every boundary.
    private let blockSize: Int
    private let readSize: Int

    /// Opens the trace; `-` is standard input.
    public init(path: String, blockLines: Int = TraceStream.blockLines, readSize: Int = 1 << 20) throws(InputError) {
        self.path = path
        blockSize = blockLines
        self.readSize = readSize
        displayPath = path == "-" ? "<stdin>" : path
        assembler = TraceParser.Assembler(path: path)
        if path == "-" {
            handle = .standardInput
            size = nil
            return
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw InputError("no such file: \(path)") }
        if isDirectory.boolValue { throw InputError("\(path) is a directory, not a trace") }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw InputError("cannot read \(path); check the file's permissions") }
        self.handle = handle
        size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }

    deinit {
        if path != "-" { try? handle.close() }
    }

    public var problems: [TraceParser.Problem] { assembler.problems }

    /// More problems than this and reading stops: a file that is not a trace at all should
    /// not print a million errors.
    public static let maximumProblems = 1_000

    /// Reads and parses lines until there are some entries, or the trace ends (nil). Problems
    /// go to `problems`; the entries before the first problem are handed out, none after it
    /// (a simulation would go on from a wrong state), but the rest is still read for its
    /// problems.
    public func nextEntries() -> [TraceEntry]? {
        guard let segments = nextSegments() else { return nil }
        return segments.count == 1 ? segments[0] : Array(segments.joined())
    }

    /// `nextEntries`, as the runs of entries parsed together on one core: the simulator
    /// decides each run on a core of its own, so no entry is copied into a block-wide array.
    public func nextSegments() -> [[TraceEntry]]? {
        nextRuns()?.map { $0.materialised() }
    }

    /// `nextSegments`, with plain lines as they were read when `keepsPlainLines` is set.
    func nextRuns() -> [TraceRun]? {
        while true {
            if assembler.hasEntries { return assembler.takeRuns() }
            guard !isFinished, let block = readBlock() else {
                finish()
                return nil
            }
            add(parse(block))
        }
    }

    /// Reads lines up to the first request, so that the `policy:` header is known before a
    /// policy is chosen; the entries read on the way come first from `nextEntries`.
    public func readHeader() {
        while !isFinished, !assembler.hasRequests, assembler.problems.isEmpty {
            guard let block = readBlock(maximumLines: 64) else {
                finish()
                return
            }
            add(parse(block))
        }
    }

    private func add(_ chunks: [ParsedChunk]) {
        for chunk in chunks {
            // Nearly every chunk: requests only, read before any problem. Its entries go on
            // as the run they were parsed in.
            if chunk.others.isEmpty, assembler.problems.isEmpty {
                assembler.add(run: TraceRun(entries: chunk.entries, plain: chunk.plain, bytes: chunk.bytes))
                continue
            }
            // A chunk with other lines holds no plain ones (`parse`); without other lines, it
            // is here only after a problem, and its requests are not handed out.
            var next = 0
            for other in chunk.others {
                while next < other.entriesBefore {
                    add(.entry(chunk.entries[next]), number: 0, text: nil)
                    next += 1
                }
                add(other.line.line, number: other.line.number, text: other.line.text)
            }
            while next < chunk.entries.count {
                add(.entry(chunk.entries[next]), number: 0, text: nil)
                next += 1
            }
        }
        if assembler.problems.count >= Self.maximumProblems { isFinished = true }
    }

    private func add(_ line: TraceParser.Line, number: Int, text: String?) {
        let before = assembler.problems.count
        // After the first problem, lines are read for their problems only.
        if before > 0, case .entry = line { return }
        assembler.add(line)
        if assembler.problems.count > before { problemLines[number] = text ?? "" }
    }

    /// The lines with problems, as a file the reporters can quote.
    public var problemSource: SourceFile { SourceFile(path: displayPath, sparseLines: problemLines) }

    // MARK: Reading

    /// One line: its number, where its bytes are in the block, and what it parsed to.
    struct ParsedLine: Sendable {
        var number: Int
        var line: TraceParser.Line
        /// The line's text, for a line that is not a request (a problem may be reported at
        /// it): a request line keeps no reference to the block, whose count two cores would
        /// otherwise contend for on every line.
        var text: String?
    }

    private struct Block {
        var bytes: [UInt8]
        /// Each line's bytes (without its break) and number.
        var lines: [(range: Range<Int>, number: Int)]
    }

    /// A run of a block's lines parsed on one core: its entries, and the lines that are not
    /// requests (headers, problems), each with how many of the run's entries come before it.
    struct ParsedChunk: Sendable {
        var entries: [TraceEntry] = []
        var others: [(entriesBefore: Int, line: ParsedLine)] = []
        /// With `keepsPlainLines`: the plain lines, and the block they point into.
        var plain: [(entriesBefore: Int32, line: PlainLine)] = []
        var bytes: [UInt8] = []
    }

    /// Whether plain subresource lines are kept as `PlainLine`s, not parsed into entries: for
    /// a simulation that counts verdicts over bare lists (`Simulator.tally`). Set before the
    /// first read.
    var keepsPlainLines = false

    /// Lines per run parsed on one core.
    static let parseChunk = 512

    private func parse(_ block: Block) -> [ParsedChunk] {
        let bytes = block.bytes
        let lines = block.lines
        let chunkCount = max(1, min(ParseCores.count * 4, lines.count / Self.parseChunk))
        let keepsPlain = keepsPlainLines
        return Array(0..<chunkCount).parallelMap(minimumChunk: 1) { chunk in
            let range = (lines.count * chunk / chunkCount)..<(lines.count * (chunk + 1) / chunkCount)
            let parsed = Self.parse(range, of: lines, in: bytes, keepingPlain: keepsPlain)
            // Headers and problems are put in order with entries only: such a (rare) chunk is
            // parsed again into entries alone.
            return parsed.others.isEmpty || parsed.plain.isEmpty ? parsed : Self.parse(range, of: lines, in: bytes, keepingPlain: false)
        }
    }

    private static func parse(_ range: Range<Int>, of lines: [(range: Range<Int>, number: Int)], in bytes: [UInt8], keepingPlain: Bool) -> ParsedChunk {
        var parsed = ParsedChunk()
        parsed.entries.reserveCapacity(keepingPlain ? 16 : range.count)
        if keepingPlain { parsed.plain.reserveCapacity(range.count) }
        bytes.withUnsafeBufferPointer { buffer in
            for index in range {
                let line = lines[index]
                let lineBytes = UnsafeBufferPointer(rebasing: buffer[line.range])
                if keepingPlain, let plain = TraceParser.parsePlainLine(lineBytes, number: line.number, offset: line.range.lowerBound) {
                    parsed.plain.append((Int32(parsed.entries.count), plain))
                    continue
                }
                switch TraceParser.parseLine(lineBytes, number: line.number) {
                case .entry(let entry): parsed.entries.append(entry)
                case .empty: break
                case let other:
                    parsed.others.append((parsed.entries.count, ParsedLine(number: line.number, line: other, text: String(decoding: lineBytes, as: UTF8.self))))
                }
            }
        }
        if !parsed.plain.isEmpty { parsed.bytes = bytes }
        return parsed
    }

    private func finish() {
        guard !isFinished else { return }
        isFinished = true
        // An empty trace file is a mistake (an export cut short, the wrong file); empty
        // standard input is an empty shard, which a cluster's jobs have often (docs/scale.md).
        if !sawText, path != "-", assembler.problems.isEmpty {
            fail("\(displayPath) is empty", at: SourcePosition(line: 1, column: 1), hint: "a trace holds one request per line: [TYPE] URL [key=value ...]")
        }
    }

    private func fail(_ message: String, at position: SourcePosition, hint: String? = nil, line: String? = nil) {
        assembler.problems.append(TraceParser.Problem(message: message, range: SourceRange(at: position), hint: hint))
        if let line { problemLines[position.line] = line }
        isFinished = true
    }

    /// A line past the limit: the error at the first column beyond it, the line quoted up to
    /// there (the reporter shows a window of it).
    private func failLongLine(_ number: Int, _ prefix: ArraySlice<UInt8>) {
        let text = String(decoding: prefix, as: UTF8.self)
        fail("line \(number) is longer than \(Self.maximumLineLength / 1024) KB (1 MiB); a trace holds one request per line", at: SourcePosition(line: number, column: text.unicodeScalars.count),
             line: text)
    }

    /// The next block of whole lines, or nil at the end of the input.
    private func readBlock(maximumLines: Int? = nil) -> Block? {
        let maximumLines = maximumLines ?? blockSize
        var lines: [(range: Range<Int>, number: Int)] = []
        lines.reserveCapacity(min(maximumLines, Self.blockLines))
        var block: [UInt8] = []
        block.reserveCapacity(lastBlockBytes + lastBlockBytes / 8)
        var needsMore = false
        // Whether the split met a NUL or a byte beyond ASCII: it looks at every byte that is
        // not printable ASCII, so without one the block needs no second pass (`check`).
        var sawOther = false
        while lines.count < maximumLines {
            // Read when the buffer runs low, or when what is left is an unfinished line.
            if !fill(needsMore || buffer.count - bufferStart < readSize) { break }
            needsMore = true
            // Split what is buffered into lines; keep an unfinished last line for later.
            let consumed = buffer.withUnsafeBufferPointer { bytes -> Int in
                var index = bufferStart
                var lineStart = bufferStart
                if pendingCarriageReturn, index < bytes.count, bytes[index] == 0x0A {
                    index += 1
                    lineStart = index
                }
                pendingCarriageReturn = false
                let end = bytes.count
                // The outer loop starts only with room for a line; the count is checked when one is added.
                while index < end {
                    // Printable ASCII (0x20–0x7F) ends no line: skipped eight bytes at a time.
                    index = PrintableASCII.firstOther(in: bytes, from: index, to: end)
                    guard index < end else { break }
                    let byte = bytes[index]
                    var breakLength = 0
                    switch byte {
                    case 0x0A: breakLength = 1
                    case 0x0D:
                        if index + 1 < bytes.count {
                            breakLength = bytes[index + 1] == 0x0A ? 2 : 1
                        } else if atEnd {
                            breakLength = 1
                        } else {
                            breakLength = 1
                            pendingCarriageReturn = true
                        }
                    case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x85: breakLength = 2
                    case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9): breakLength = 3
                    default: break
                    }
                    if breakLength == 0 {
                        if byte == 0 || byte >= 0x80 { sawOther = true }
                        index += 1
                        continue
                    }
                    if byte >= 0x80 { sawOther = true }
                    lines.append((block.count + (lineStart - bufferStart)..<block.count + (index - bufferStart), nextLine))
                    nextLine += 1
                    index += breakLength
                    lineStart = index
                    if lines.count >= maximumLines { break }
                }
                if atEnd, lines.count < maximumLines, lineStart < bytes.count {
                    lines.append((block.count + (lineStart - bufferStart)..<block.count + (bytes.count - bufferStart), nextLine))
                    nextLine += 1
                    lineStart = bytes.count
                }
                return lineStart
            }
            // A line longer than the limit, whole (read in one go) or not yet ended.
            if let long = lines.first(where: { $0.range.count > Self.maximumLineLength }) {
                let start = bufferStart - block.count + long.range.lowerBound
                failLongLine(long.number, buffer[start..<(start + Self.maximumLineLength + 1)])
                return nil
            }
            block += buffer[bufferStart..<consumed]
            bytesRead += consumed - bufferStart
            bufferStart = consumed
            // Every whole line was taken and what is left is still not a line.
            if lines.count < maximumLines, buffer.count - bufferStart > Self.maximumLineLength {
                failLongLine(nextLine, buffer[bufferStart..<(bufferStart + Self.maximumLineLength + 1)])
                return nil
            }
            if atEnd && bufferStart == buffer.count { break }
        }
        guard !lines.isEmpty else { return nil }
        if !isOriginChecked {
            isOriginChecked = true
            guard takeOrigin(block, &lines) else { return nil }
            // The block held the origin line alone.
            if lines.isEmpty { return readBlock(maximumLines: maximumLines) }
        }
        guard check(block, lines, mayHaveOther: sawOther) else { return nil }
        lastBlockBytes = block.count
        return Block(bytes: block, lines: lines)
    }

    /// A shard of a larger trace may start with `origin: TRACE:LINE` (docs/scale.md): its next
    /// line is line LINE of TRACE, and messages and results say so, so that an error in one
    /// shard of many points into the trace it was cut from. Takes that line out of the first
    /// block and numbers the rest from LINE; false (with a problem) when it is malformed.
    private func takeOrigin(_ block: [UInt8], _ lines: inout [(range: Range<Int>, number: Int)]) -> Bool {
        let first = block[lines[0].range]
        let keyword = Array("origin:".utf8)
        guard first.starts(with: keyword), first.count == keyword.count || first[first.startIndex + keyword.count] == 0x20 || first[first.startIndex + keyword.count] == 0x09 else { return true }
        let text = String(decoding: first, as: UTF8.self)
        let value = text.dropFirst(keyword.count).trimmingCharacters(in: .whitespaces)
        let hint = "a shard's first line may say where it was cut from: origin: TRACE:LINE (the next line is line LINE of TRACE)"
        guard text.utf8.elementsEqual(first), let colon = value.lastIndex(of: ":"), colon > value.startIndex,
              let line = Int(value[value.index(after: colon)...]), line >= 1, line < Int.max / 2 else {
            fail("the origin: line names the trace and the line the next line is: origin: TRACE:LINE", at: SourcePosition(line: 1, column: 1), hint: hint, line: text)
            return false
        }
        displayPath = String(value[..<colon])
        sawText = true
        lines.removeFirst()
        // Line 2 of the input is line `line` of the trace.
        let shift = line - 2
        lines = lines.map { ($0.range, $0.number + shift) }
        nextLine += shift
        return true
    }

    /// Reads more input when less than a line's worth is buffered; false at the end with
    /// nothing left.
    private func fill(_ wanted: Bool) -> Bool {
        if bufferStart > 0, bufferStart >= buffer.count / 2 {
            buffer.removeSubrange(0..<bufferStart)
            bufferStart = 0
        }
        if !atEnd, wanted {
            let data = (try? handle.read(upToCount: readSize)) ?? nil
            if let data, !data.isEmpty {
                buffer += data
                if isFirstRead {
                    isFirstRead = false
                    if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { bufferStart = 3 }
                    if buffer.starts(with: [0xFF, 0xFE]) || buffer.starts(with: [0xFE, 0xFF]) {
                        fail("\(displayPath) is UTF-16 (it starts with a UTF-16 byte-order mark); traces must be UTF-8", at: SourcePosition(line: 1, column: 1),
                             hint: "save the file as UTF-8")
                        return false
                    }
                }
            } else {
                atEnd = true
            }
        }
        return bufferStart < buffer.count
    }

    /// NUL bytes and bytes that are not UTF-8 end the trace with an error at their line and
    /// column; anything else marks the trace as not empty. `mayHaveOther`: false when the
    /// split into lines met no NUL and no byte beyond ASCII.
    private func check(_ block: [UInt8], _ lines: [(range: Range<Int>, number: Int)], mayHaveOther: Bool) -> Bool {
        let isPlainASCII = !mayHaveOther || block.withUnsafeBufferPointer(PrintableASCII.isASCIIWithoutNUL)
        // Nearly every block after the first: nothing to look at line by line.
        if isPlainASCII, sawText { return true }
        for line in lines {
            let bytes = block[line.range]
            if !sawText, bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) { sawText = true }
            if isPlainASCII { continue }
            if let nul = bytes.firstIndex(of: 0) {
                let column = String(decoding: block[line.range.lowerBound..<nul], as: UTF8.self).unicodeScalars.count + 1
                // The line as far as the NUL, so the snippet shows where it is.
                fail("\(displayPath) holds a NUL byte: it is a binary file, not a trace", at: SourcePosition(line: line.number, column: column),
                     line: String(decoding: block[line.range.lowerBound..<nul], as: UTF8.self) + "\u{2400}")
                return false
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if text.utf8.count != bytes.count || !text.utf8.elementsEqual(bytes) {
                var parser = Unicode.UTF8.ForwardParser()
                var iterator = bytes.makeIterator()
                var offset = line.range.lowerBound
                var column = 1
                scan: while true {
                    switch parser.parseScalar(from: &iterator) {
                    case .valid(let encoded):
                        offset += encoded.count
                        column += 1
                    case .emptyInput: break scan
                    case .error: break scan
                    }
                }
                fail(String(format: "%@ is not valid UTF-8: byte 0x%02X cannot start or continue a character here", displayPath, block[offset]),
                     at: SourcePosition(line: line.number, column: column), hint: "save the file as UTF-8 (it may be Latin-1 or Windows-1252)", line: text)
                return false
            }
        }
        return true
    }
}

private enum ParseCores {
    /// Read once a process: Foundation's `activeProcessorCount` opens /proc and cgroup files.
    static let count = ProcessInfo.processInfo.activeProcessorCount
}
