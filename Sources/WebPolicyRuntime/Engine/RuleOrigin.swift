import URLFilter

/// Where a rule of a list came from, for "why" in simulate's output. A class: every result
/// that a rule matched points at it, and a reference is one count to copy, not three.
public final class RuleOrigin: Sendable, Hashable {
    public let index: Int
    public let id: String?
    public let location: SourceLocation?
    public let expansion: String?

    public init(index: Int, id: String?, location: SourceLocation?, expansion: String? = nil) {
        self.index = index
        self.id = id
        self.location = location
        self.expansion = expansion
    }

    public static func == (left: RuleOrigin, right: RuleOrigin) -> Bool {
        left === right || (left.index == right.index && left.id == right.id && left.location == right.location && left.expansion == right.expansion)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
        hasher.combine(id)
        hasher.combine(location)
        hasher.combine(expansion)
    }
}


/// What an engine image keeps of a rule's origin: numbers, and strings by their place in the
/// image's string table (-1: none). Locations as line and column numbers, never source text.
struct OriginRecord: BitwiseCopyable, Sendable {
    /// The rule's id, file and expansion (`OriginSource`): shared by the rules of one policy
    /// entry, and by every rule of an imported list (one file, no ids).
    var source: Int32
    var startLine: Int32
    var startColumn: Int32
}

/// Where a rule's source range ends, when it is not one column after its start.
struct OriginEnd: BitwiseCopyable, Sendable {
    var line: Int32
    var column: Int32
}

/// The strings of an origin, by their place in the string table (-1: none).
struct OriginSource: BitwiseCopyable, Sendable, Hashable {
    var id: Int32
    var path: Int32
    var expansion: Int32
}

/// The strings an engine image holds — selectors, notifications, rule ids, paths — each once,
/// read where they lie and made into a `String` only when an output asks.
struct StringTable: Sendable {
    private let strings: FlatLists<UInt8>

    init(reading reader: inout ImageReader) throws(ImageError) {
        strings = try reader.lists(UInt8.self, "the strings")
    }

    var count: Int { strings.count }

    /// String `index`, or nil for -1. The bytes are read as UTF-8, repaired if they are not.
    func string(_ index: Int32) -> String? {
        guard index >= 0 else { return nil }
        return String(decoding: strings[Int(index)], as: UTF8.self)
    }

    /// String `index` as a JSON string (`null` for -1), written from the table's bytes.
    func appendQuoted(_ index: Int32, to output: inout [UInt8]) {
        guard index >= 0 else { output.append(contentsOf: "null".utf8); return }
        JSONStringBytes.append(quotingRepairing: strings[Int(index)], to: &output)
    }

    /// Collects the strings of an image being written, each distinct one once.
    struct Builder {
        private var numbers: [String: Int32] = [:]
        private var texts: [[UInt8]] = []

        mutating func add(_ text: String?) -> Int32 {
            guard let text else { return -1 }
            if let known = numbers[text] { return known }
            let number = Int32(texts.count)
            numbers[text] = number
            texts.append(Array(text.utf8))
            return number
        }

        func write(into writer: inout ImageWriter) { writer.write(lists: texts) }
    }
}
