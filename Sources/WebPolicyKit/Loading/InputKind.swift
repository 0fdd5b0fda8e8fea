import Foundation

/// What a file is, read from its content — the one reading every command shares
/// (docs/decisions.md, "What a file is"). A file's extension says nothing: a policy may be
/// written in JSON, and a content-blocker list may be saved as `.txt`.
public enum InputKind: Equatable, Sendable {
    /// A mapping with a top-level `webpolicy:` key, or a file named `*.webpolicy.yaml`.
    case policy
    /// A JSON array: WebKit's content-blocker format.
    case contentBlockerList
    /// Anything else: another tool's YAML, a trace, a mapping without `webpolicy:`.
    case other

    /// How much of a file is looked at. The key sits at the top of every policy written by
    /// hand, `init` or `import`; a file whose first 256 KB lack it is not one of ours.
    public static let prefixLength = 256 * 1024

    /// The kind of the file at `path`; an unreadable file is `.other` (the command that reads
    /// it reports why).
    public static func of(path: String) -> InputKind {
        if hasPolicyName(path) { return .policy }
        return prefix(of: path).map(of(bytes:)) ?? .other
    }

    /// The file's first `prefixLength` bytes; nil when it cannot be read.
    private static func prefix(of path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // An empty file reads as nil: no bytes, not a failure.
        do { return Array(try handle.read(upToCount: prefixLength) ?? Data()) } catch { return nil }
    }

    /// How a command reads a file named on its command line: a policy or a content-blocker
    /// list, by content; a file that is neither (`{}`, a broken list) is read as its name
    /// says — a `.json` file as a list, in WebKit's format, so WebKit's parser explains what
    /// is wrong with it; anything else as a policy. An Adblock Plus filter list (EasyList's
    /// `.txt`) is read as a list too: its error then says what it is and how to convert it,
    /// where read as YAML it got a YAML error about anchors.
    public static func reading(of path: String) -> InputKind {
        if hasPolicyName(path) { return .policy }
        let bytes = prefix(of: path)
        switch bytes.map(of(bytes:)) ?? .other {
        case .policy: return .policy
        case .contentBlockerList: return .contentBlockerList
        case .other:
            if path.lowercased().hasSuffix(".json") { return .contentBlockerList }
            let isFilterList = bytes.map { FilterListSyntax.looksLikeFilterList(String(decoding: $0, as: UTF8.self)) } ?? false
            return isFilterList ? .contentBlockerList : .policy
        }
    }

    /// `*.webpolicy.yaml` (or `.yml`, `.json`): a policy by name, whatever it holds, so a file
    /// broken past recognition is still linted.
    public static func hasPolicyName(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent.lowercased()
        return [".webpolicy.yaml", ".webpolicy.yml", ".webpolicy.json"].contains { name.hasSuffix($0) }
    }

    /// The kind of a file's leading bytes.
    public static func of(bytes: [UInt8]) -> InputKind {
        var index = 0
        // A UTF-8 byte-order mark, blank space and comment lines come before what counts.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "["):
                return .contentBlockerList
            case UInt8(ascii: "{"):
                return containsKey(bytes[index...], atLineStart: false) ? .policy : .other
            default:
                return containsKey(bytes[index...], atLineStart: true) ? .policy : .other
            }
        }
        return .other
    }

    /// Whether `webpolicy` (bare or quoted) is a key whose value is a scalar (the format
    /// version) — at the start of a line for a block mapping, where top-level keys sit; after
    /// `{` or `,` in a flow mapping or JSON object. A `webpolicy:` key holding a mapping is
    /// another tool's (a CI job named webpolicy, as in ci/gitlab/webpolicy.gitlab-ci.yml), and
    /// the word inside a value (`"$id": "urn:webpolicy:schema"`) is no key.
    private static func containsKey(_ bytes: ArraySlice<UInt8>, atLineStart: Bool) -> Bool {
        let key = Array("webpolicy".utf8)
        for index in bytes.indices {
            let quote = bytes[index]
            let quoted = quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")
            let start = quoted ? index + 1 : index
            // The word first (cheap, and rare), then whether it stands where a key does.
            guard bytes[start...].starts(with: key) else { continue }
            if index > bytes.startIndex, atLineStart ? bytes[index - 1] != UInt8(ascii: "\n") : !isAfterFlowKeyStart(bytes, index) { continue }
            var after = start + key.count
            if quoted {
                guard after < bytes.endIndex, bytes[after] == quote else { continue }
                after += 1
            }
            while after < bytes.endIndex, isBlank(bytes[after]) { after += 1 }
            if after < bytes.endIndex, bytes[after] == UInt8(ascii: ":"), holdsScalar(bytes, after + 1) { return true }
        }
        return false
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func isLineBreak(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }

    /// Whether the bytes before `position` end a flow mapping's opening or a previous entry:
    /// `{` or `,`, then blank space.
    private static func isAfterFlowKeyStart(_ bytes: ArraySlice<UInt8>, _ position: Int) -> Bool {
        var before = position - 1
        while before >= bytes.startIndex, isBlank(bytes[before]) || isLineBreak(bytes[before]) { before -= 1 }
        return before >= bytes.startIndex && (bytes[before] == UInt8(ascii: "{") || bytes[before] == UInt8(ascii: ","))
    }

    /// Whether the key's value is a scalar, or missing: `webpolicy: 1`, or a policy that lacks
    /// its version (lint says so) — not a collection or block scalar, and not a `webpolicy:`
    /// with an indented block below it (another tool's mapping).
    private static func holdsScalar(_ bytes: ArraySlice<UInt8>, _ position: Int) -> Bool {
        func endsLine(_ byte: UInt8) -> Bool { isLineBreak(byte) || byte == UInt8(ascii: "#") }
        var index = position
        while index < bytes.endIndex, isBlank(bytes[index]) { index += 1 }
        guard index < bytes.endIndex else { return true }
        if "{[|>".utf8.contains(bytes[index]) { return false }
        guard endsLine(bytes[index]) else { return true }
        // Nothing on the line: what the next line with content starts with decides.
        while index < bytes.endIndex {
            while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            index += 1
            let lineStart = index
            while index < bytes.endIndex, isBlank(bytes[index]) { index += 1 }
            guard index < bytes.endIndex else { return true }
            if endsLine(bytes[index]) { continue }
            // Indented, or a sequence entry: the block below belongs to the key.
            return index == lineStart && bytes[index] != UInt8(ascii: "-")
        }
        return true
    }
}
