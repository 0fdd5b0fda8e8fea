import WebPolicyRuntime

/// A section entry as written, for the decoder's memo: the lines from the entry's first to
/// the next entry's first (the entry, its indentation and any comment after it) and the column
/// it starts at. An entry with the same text decodes to the same value, its positions moved by
/// the lines between (`LineMovable`) — when the document has no alias or directive, which
/// could give the same text another meaning (`YAMLComposer.Composed.isContextFree`).
///
/// The key holds the text's length and hash; the memo's entry holds the text itself, which a
/// hit compares byte for byte (`matches`), so a keystroke copies no entry's text but its own.
struct EntrySourceKey: Hashable, Sendable {
    let column: Int
    let length: Int
    let digest: Int
    /// Where the text starts in this lint's file, in bytes.
    private let start: Int

    static func == (lhs: EntrySourceKey, rhs: EntrySourceKey) -> Bool {
        lhs.column == rhs.column && lhs.length == rhs.length && lhs.digest == rhs.digest
    }

    func hash(into hasher: inout Hasher) { hasher.combine(digest) }

    /// Whether `text` is this entry's text in `file`, the file the key was made of.
    func matches(_ text: [UInt8], in file: SourceFile) -> Bool { text.count == length && file.hasBytes(text, at: start) }

    /// The entry's text in `file`, for the memo to hold.
    func text(in file: SourceFile) -> [UInt8] { file.bytes(at: start, length: length) }

    /// The keys of a section's entries; nil where an entry has none: the last entry (what
    /// follows it is not bounded by another entry), and every entry of a section whose entries
    /// share lines (a flow list, a minified JSON policy), which is decoded afresh each time.
    static func keys(of items: [YAMLNode], in file: SourceFile) -> [EntrySourceKey?] {
        guard items.count > 1 else { return Array(repeating: nil, count: items.count) }
        for (item, next) in zip(items, items.dropFirst()) where item.range.end.line >= next.range.start.line {
            return Array(repeating: nil, count: items.count)
        }
        let lines = items.indices.map { $0 + 1 < items.count ? items[$0].range.start.line..<items[$0 + 1].range.start.line : nil }
        return zip(items, file.lineRangeDigests(lines)).map { item, place in
            place.map { EntrySourceKey(column: item.range.start.column, length: $0.length, digest: $0.digest, start: $0.start) }
        }
    }

    private init(column: Int, length: Int, digest: Int, start: Int) {
        self.column = column
        self.length = length
        self.digest = digest
        self.start = start
    }
}
