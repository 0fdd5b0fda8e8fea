import URLFilter

/// The file `webpolicy compile` writes beside each content-rule list: the list's engine as an
/// image (`ContentRuleEngine`'s tables), which an app maps read-only and decides from in
/// place instead of parsing the list, checking every rule and compiling its url-filters at
/// each launch — as WebKit maps its compiled content-rule lists (`ContentRuleListStore`: a
/// header with version and sizes, then the bytecode used from the mapped file).
///
/// A 128-byte header, little-endian, then the tables:
///
/// | offset | size | field |
/// | --- | --- | --- |
/// | 0 | 8 | magic `WPENGINE` |
/// | 8 | 4 | format version (`formatVersion`) |
/// | 12 | 4 | layout fingerprint: the record types' sizes and alignments (`ImageLayout`) |
/// | 16 | 4 | byte-order mark `0x01020304` as written |
/// | 20 | 4 | header size (128) |
/// | 24 | 8 | total size of the file |
/// | 32 | 8 | checksum of the bytes after the header (`ImageChecksum`) |
/// | 40 | 8 | rule count |
/// | 48 | 8 | byte size of the list it was built from |
/// | 56 | 32 | SHA-256 of the list it was built from |
/// | 88 | 8 × 4 | sizes of the sections: rules, url-filter matcher, condition matchers, indexes |
/// | 120 | 8 | reserved (0) |
///
/// Nothing in it is trusted before it is checked: a file that is not an image, of another
/// version or layout, built from another list, cut short or damaged is refused with its
/// reason (`ImageError`), and the caller rebuilds the engine from the list.
public enum EngineImageFile {
    /// Raised whenever what a table means or how it is laid out changes: an older image is
    /// then rebuilt, never misread.
    public static let formatVersion: UInt32 = 3
    /// `NAME.content-rules.json` → `NAME.content-rules.engine`.
    public static let fileExtension = "engine"
    static let headerSize = 128
    private static let magic = Array("WPENGINE".utf8)
    private static let byteOrderMark: UInt32 = 0x0102_0304

    /// Which list an image was built from.
    public struct ListIdentity: Sendable, Equatable {
        public var sha256: [UInt8]
        public var size: Int

        public init(sha256: [UInt8], size: Int) {
            self.sha256 = sha256
            self.size = size
        }

        /// The identity of `bytes`.
        public init<Bytes: Collection>(of bytes: Bytes) where Bytes.Element == UInt8 {
            self.init(sha256: SHA256.digest(bytes), size: bytes.count)
        }

        /// The digest as 64 lowercase hex digits, as a manifest writes it.
        public var hexSHA256: String { EngineImageFile.hex(sha256) }

        /// From a manifest's lowercase hex digest; nil when it is not 64 hex digits.
        public init?(hexSHA256: String, size: Int) {
            let digits = Array(hexSHA256.utf8)
            guard digits.count == 64 else { return nil }
            var bytes: [UInt8] = []
            for index in stride(from: 0, to: 64, by: 2) {
                guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
                bytes.append(high << 4 | low)
            }
            self.init(sha256: bytes, size: size)
        }

        private static func nibble(_ digit: UInt8) -> UInt8? {
            switch digit {
            case 0x30...0x39: return digit - 0x30
            case 0x61...0x66: return digit - 0x61 + 10
            case 0x41...0x46: return digit - 0x41 + 10
            default: return nil
            }
        }
    }

    /// The layout this build reads and writes.
    static let layoutFingerprint = ImageLayout.fingerprint(
        ImageLayout.urlFilterRecords + [MemoryLayout<RuleFlags>.stride, MemoryLayout<RuleCondition>.stride, MemoryLayout<OriginRecord>.stride,
                                        MemoryLayout<OriginSource>.stride, MemoryLayout<OriginEnd>.stride, MemoryLayout<OriginRecord>.alignment])

    /// The file's bytes for `engine`, built from `list`.
    public static func bytes(of engine: ContentRuleEngine, list: ListIdentity) -> [UInt8] {
        let body = UnsafeRawBufferPointer(rebasing: engine.storage.buffer[engine.body])
        var header: [UInt8] = magic
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { header += $0 } }
        append(formatVersion)
        append(layoutFingerprint)
        append(byteOrderMark)
        append(UInt32(headerSize))
        append(UInt64(headerSize + body.count))
        append(ImageChecksum.of(body))
        append(UInt64(engine.count))
        append(UInt64(list.size))
        header += list.sha256.count == 32 ? list.sha256 : [UInt8](repeating: 0, count: 32)
        for size in engine.sectionSizes.prefix(4) { append(UInt64(size)) }
        header += [UInt8](repeating: 0, count: headerSize - header.count)
        return header + Array(body)
    }

    /// The engine in `bytes`, after every check; `list`: the list it must have been built
    /// from (nil: any). The engine reads `bytes` in place and keeps them alive.
    public static func engine(from bytes: ImageBytes, list: ListIdentity?) throws(ImageError) -> ContentRuleEngine {
        let raw = bytes.buffer
        guard raw.count >= headerSize else { throw ImageError("it is \(raw.count) bytes, shorter than an engine image's header") }
        guard Array(raw[0..<8]) == magic else { throw ImageError("it is not an engine image (no WPENGINE at its start)") }
        func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T { T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        let version = load(8, UInt32.self)
        guard version == formatVersion else { throw ImageError("it is an engine image of format \(version); this build reads format \(formatVersion)") }
        guard load(16, UInt32.self) == byteOrderMark else { throw ImageError("it was written with the other byte order") }
        guard load(12, UInt32.self) == layoutFingerprint else { throw ImageError("it was written with another memory layout (another compiler or architecture)") }
        guard load(20, UInt32.self) == UInt32(headerSize) else { throw ImageError("its header is \(load(20, UInt32.self)) bytes, not \(headerSize)") }
        let total = load(24, UInt64.self)
        guard total == UInt64(raw.count) else { throw ImageError("it is \(raw.count) bytes where its header says \(total): cut short or extended") }
        if let list {
            let size = load(48, UInt64.self)
            let sha256 = Array(raw[56..<88])
            guard sha256 == list.sha256, size == UInt64(list.size) else {
                throw ImageError("it was built from another version of the list (SHA-256 \(hex(sha256).prefix(16))…, \(size) bytes; the list is \(hex(list.sha256).prefix(16))…, \(list.size) bytes)")
            }
        }
        let body = headerSize..<raw.count
        let checksum = ImageChecksum.of(UnsafeRawBufferPointer(rebasing: raw[body]))
        guard checksum == load(32, UInt64.self) else { throw ImageError("its checksum does not match: the file is damaged") }
        let engine = try ContentRuleEngine(bytes: bytes, body: body)
        guard UInt64(engine.count) == load(40, UInt64.self) else { throw ImageError("its header counts \(load(40, UInt64.self)) rules, its tables \(engine.count)") }
        return engine
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }
}
