import Foundation
import WebPolicyRuntime

/// A problem with the command line's inputs themselves (a missing path): exit code 2, no report.
public struct InputError: Error, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Reads a file into a `SourceFile`, turning every way a file can fail to be a text file —
/// unreadable, a directory, binary, not UTF-8, empty — into a positioned diagnostic.
enum SourceReader {
    /// Larger files are refused before they are read; a real policy is a few hundred kilobytes.
    static let maximumSize = 64 * 1024 * 1024

    enum Outcome {
        case file(SourceFile)
        /// `source` is a best-effort decoding of the file, when one helps show the problem.
        case problem(Diagnostic, source: SourceFile?)
    }

    /// `path` is used to open the file, `displayPath` in messages. A problem that concerns the
    /// file as a whole is placed at its first line, or at `reference` (the `include:` entry that
    /// named it) when there is one.
    /// What a file must be, for messages about one that is not.
    enum Expected {
        case policy
        case contentBlockerList
        case trace

        var noun: String {
            switch self {
            case .policy: return "YAML policy"
            case .contentBlockerList: return "JSON content-blocker list"
            case .trace: return "trace"
            }
        }

        var plural: String {
            switch self {
            case .policy: return "policies"
            case .contentBlockerList: return "content-blocker lists"
            case .trace: return "traces"
            }
        }

        var emptyHint: String {
            switch self {
            case .policy: return "a policy starts with 'webpolicy: 1' and a 'name'"
            case .contentBlockerList: return "a content-blocker list is a JSON array of rules"
            case .trace: return "a trace holds one request per line: [TYPE] URL [key=value ...]"
            }
        }
    }

    static func read(path: String, displayPath: String, reference: SourceLocation? = nil, expecting expected: Expected = .policy) -> Outcome {
        func problem(_ check: LoaderCheck, _ message: String, at position: SourcePosition? = nil, hint: String? = nil, source: SourceFile? = nil) -> Outcome {
            let location = position.map { SourceLocation(path: displayPath, range: SourceRange(at: $0)) }
                ?? reference
                ?? SourceLocation(path: displayPath, range: SourceRange(at: SourcePosition(line: 1, column: 1)))
            return .problem(Diagnostic(ruleID: check.id, severity: .error, message: message, location: location, hint: hint), source: source)
        }

        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return problem(.includeNotFound, "no such file: \(displayPath)")
        }
        if isDirectory.boolValue {
            return problem(.fileUnreadable, "\(displayPath) is a directory, not a \(expected.noun)")
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maximumSize {
            return problem(.fileUnreadable, "\(displayPath) is \(size / 1_048_576) MB; files are limited to \(maximumSize / 1_048_576) MB")
        }
        guard let bytes = readBounded(path) else {
            return problem(.fileUnreadable, "cannot read \(displayPath)", hint: "check the file's permissions")
        }
        // A device or a pipe has no size to check beforehand: /dev/zero never ends.
        if bytes.count > maximumSize {
            return problem(.fileUnreadable, "\(displayPath) holds more than \(maximumSize / 1_048_576) MB; files are limited to that")
        }
        return read(bytes: bytes, displayPath: displayPath, reference: reference, expecting: expected)
    }

    /// A file's bytes checked as a file read from disk is (its encoding, a NUL, nothing in
    /// it): an editor's unsaved text gets the findings of the same text saved.
    static func read(bytes: [UInt8], displayPath: String, reference: SourceLocation? = nil, expecting expected: Expected = .policy) -> Outcome {
        func problem(_ check: LoaderCheck, _ message: String, at position: SourcePosition? = nil, hint: String? = nil, source: SourceFile? = nil) -> Outcome {
            let location = position.map { SourceLocation(path: displayPath, range: SourceRange(at: $0)) }
                ?? reference
                ?? SourceLocation(path: displayPath, range: SourceRange(at: SourcePosition(line: 1, column: 1)))
            return .problem(Diagnostic(ruleID: check.id, severity: .error, message: message, location: location, hint: hint), source: source)
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return problem(.fileEncoding, "\(displayPath) is UTF-16 (it starts with a UTF-16 byte-order mark); \(expected.plural) must be UTF-8",
                           hint: "save the file as UTF-8")
        }
        if let nul = bytes.firstIndex(of: 0) {
            return problem(.fileBinary, "\(displayPath) holds a NUL byte: it is a binary file, not a \(expected.noun)",
                           at: position(ofByte: nul, in: bytes))
        }
        // Decoding repairs invalid bytes, so the text is valid exactly when it re-encodes to the
        // same bytes; the scalar walk runs only to find where a bad byte is.
        var text = String(decoding: bytes, as: UTF8.self)
        let isValid = text.withUTF8 { decoded in decoded.count == bytes.count && decoded.elementsEqual(bytes) }
        if !isValid, let bad = firstInvalidUTF8Byte(bytes) {
            return problem(.fileEncoding, String(format: "%@ is not valid UTF-8: byte 0x%02X cannot start or continue a character here", displayPath, bytes[bad]),
                           at: position(ofByte: bad, in: bytes), hint: "save the file as UTF-8 (it may be Latin-1 or Windows-1252)",
                           source: SourceFile(path: displayPath, text: String(decoding: bytes, as: UTF8.self)))
        }
        if text.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0 == "\u{FEFF}" }) {
            return problem(.fileEmpty, "\(displayPath) is empty", hint: expected.emptyHint)
        }
        return .file(SourceFile(path: displayPath, text: text))
    }

    /// The line and column (in characters) of byte `offset`, counted over the valid text before it.
    /// The file's bytes, reading no more than one byte past the size limit.
    private static func readBounded(_ path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        while bytes.count <= maximumSize {
            // nil (or nothing) is the end of the file; a thrown error, a file that cannot be read.
            let chunk: Data?
            do { chunk = try handle.read(upToCount: min(1 << 20, maximumSize + 1 - bytes.count)) } catch { return nil }
            guard let chunk, !chunk.isEmpty else { break }
            bytes += chunk
        }
        return bytes
    }

    private static func position(ofByte offset: Int, in bytes: [UInt8]) -> SourcePosition {
        let prefix = String(decoding: bytes[..<offset], as: UTF8.self)
        let file = SourceFile(path: "", text: prefix)
        return file.endPosition
    }

    /// The offset of the first byte that is not part of a well-formed UTF-8 sequence, if any.
    private static func firstInvalidUTF8Byte(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
