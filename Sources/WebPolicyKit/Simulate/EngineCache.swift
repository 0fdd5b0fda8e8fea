#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import URLFilter
import WebPolicyRuntime

/// Engine images of the lists `simulate`, `explain` and `diff` load, kept in the user's cache
/// folder under a key made of their content: the second run on the same list reads the image
/// its first run wrote instead of parsing the list and building the engine again (EasyList +
/// EasyPrivacy: 2.4 s of start-up). An image is only ever a cache: it is checked as the
/// runtime checks one (format version, layout, the SHA-256 and size of what it was built from,
/// checksum, every table), and anything wrong with it — damaged, cut short, from another
/// version of webpolicy — means the engine is built again and the file replaced, never an
/// error. Files are written through a temporary file and a rename, so a reader never maps half
/// of one; the folder keeps the most recently used `capacity` images, and no more than
/// `maximumBytes` of them (least recently used out first; the newest always stays).
/// `webpolicy cache` shows it and cleans it.
public struct EngineCache: Sendable {
    public let directory: URL
    public var capacity = 16
    /// 512 MB by default; `WEBPOLICY_CACHE_MAX_MB` sets another.
    public var maximumBytes = 512 * 1_000_000

    /// How long a list file must have been left alone before its identity is remembered by
    /// its stamp (`ListStamp`), and the clock that says so (tests move it).
    public var stampMargin: TimeInterval = 2
    public var now: @Sendable () -> Date = { Date() }

    public init(directory: URL) {
        self.directory = directory
    }

    /// `--cache-dir`, else `WEBPOLICY_CACHE_DIR`, else the platform's cache folder
    /// (`$XDG_CACHE_HOME/webpolicy` or `~/.cache/webpolicy`; `~/Library/Caches/webpolicy` on
    /// macOS); nil with `--no-cache` or where no home folder is known.
    public static func resolve(directory: String?, disabled: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> EngineCache? {
        if disabled { return nil }
        var cache = folder(directory: directory, environment: environment)
        if let megabytes = environment["WEBPOLICY_CACHE_MAX_MB"].flatMap(Int.init), megabytes >= 0 { cache?.maximumBytes = megabytes * 1_000_000 }
        return cache
    }

    private static func folder(directory: String?, environment: [String: String]) -> EngineCache? {
        if let directory { return EngineCache(directory: URL(fileURLWithPath: directory)) }
        if let folder = environment["WEBPOLICY_CACHE_DIR"], !folder.isEmpty { return EngineCache(directory: URL(fileURLWithPath: folder)) }
        #if os(macOS)
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return EngineCache(directory: URL(fileURLWithPath: home).appendingPathComponent("Library/Caches/webpolicy"))
        #else
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return EngineCache(directory: URL(fileURLWithPath: xdg).appendingPathComponent("webpolicy")) }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return EngineCache(directory: URL(fileURLWithPath: home).appendingPathComponent(".cache/webpolicy"))
        #endif
    }

    /// What an image is looked up by: the content it is built from (`identity`: its SHA-256 and
    /// size, which the image's header must repeat) and how its origins name it (`name`: the
    /// path as the user gave it, which every "why" quotes).
    public struct Key: Sendable {
        var identity: EngineImageFile.ListIdentity
        var name: String

        /// A bare list, by its bytes and the path it was named by.
        public init<Bytes: Collection>(list bytes: Bytes, path: String) where Bytes.Element == UInt8 {
            self.init(identity: EngineImageFile.ListIdentity(of: bytes), path: path)
        }

        /// A bare list known by its identity (`rememberedIdentity(of:)`) and the path it was named by.
        public init(identity: EngineImageFile.ListIdentity, path: String) {
            self.identity = identity
            name = "list\u{0}" + path
        }

        /// Rules built elsewhere (a policy's lowered lists), by a text that holds everything
        /// the engine is built from: the rules and their origins.
        public init(rules: [(rule: JSONValue, origin: RuleOrigin)]) {
            var text = ""
            for (rule, origin) in rules {
                text += rule.serialized(pretty: false)
                text += "\u{0}\(origin.index)\u{0}\(origin.id ?? "\u{1}")\u{0}\(origin.expansion ?? "\u{1}")\u{0}"
                if let location = origin.location {
                    text += "\(location.path)\u{0}\(location.range.start.line):\(location.range.start.column)-\(location.range.end.line):\(location.range.end.column)"
                }
                text += "\n"
            }
            identity = EngineImageFile.ListIdentity(of: Array(text.utf8))
            name = "rules"
        }

        /// The file's name: the identity and the name, hashed.
        var fileName: String {
            let digest = SHA256.hex(identity.sha256 + Array(name.utf8) + Array(String(identity.size).utf8))
            return "engine-\(digest.prefix(32)).\(EngineImageFile.fileExtension)"
        }
    }

    /// The cached engine of `key`, or the one `build` makes (nil when it cannot: nothing is
    /// written), which is then cached.
    public func engine(for key: Key, build: () -> ContentRuleEngine?) -> ContentRuleEngine? {
        if let engine = cachedEngine(for: key) { return engine }
        guard let engine = build() else { return nil }
        store(EngineImageFile.bytes(of: engine, list: key.identity), as: directory.appendingPathComponent(key.fileName))
        return engine
    }

    /// The cached engine of `key`, if a sound image of it is there.
    public func cachedEngine(for key: Key) -> ContentRuleEngine? {
        let file = directory.appendingPathComponent(key.fileName)
        guard FileManager.default.fileExists(atPath: file.path),
              let bytes = try? FileBytes.image(file.path), let engine = try? EngineImageFile.engine(from: bytes, list: key.identity) else { return nil }
        // Used: it stays among the most recent.
        utime(file.path, nil)
        return engine
    }


    /// Writes an image atomically, then keeps the folder within its bounds.
    private func store(_ bytes: [UInt8], as file: URL) {
        if write(bytes, as: file) { prune() }
    }

    /// Writes through a temporary file and a rename, so that a reader never sees half of it;
    /// a cache that cannot be written is no cache, not an error (false).
    @discardableResult
    func write(_ bytes: [UInt8], as file: URL) -> Bool {
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil else { return false }
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(bytes)) else { return false }
        if rename(temporary.path, file.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            return false
        }
        return true
    }

    /// One cached image: its file, size and when it was last used.
    public struct Entry: Sendable {
        public var url: URL
        public var bytes: Int
        public var lastUsed: Date
    }

    /// The cached images, most recently used first.
    public func entries() -> [Entry] {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey]
        guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys) else { return [] }
        return files.filter { $0.lastPathComponent.hasPrefix("engine-") && $0.pathExtension == EngineImageFile.fileExtension }.map { file in
            let values = try? file.resourceValues(forKeys: Set(keys))
            return Entry(url: file, bytes: values?.fileSize ?? 0, lastUsed: values?.contentModificationDate ?? .distantPast)
        }.sorted { ($0.lastUsed, $0.url.lastPathComponent) > ($1.lastUsed, $1.url.lastPathComponent) }
    }

    /// Removes every cached image, the remembered list stamps and leftovers of killed runs;
    /// returns how many bytes.
    @discardableResult
    public func clean() -> Int {
        guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.fileSizeKey]) else { return 0 }
        var freed = 0
        for file in files where file.lastPathComponent.hasPrefix("engine-") || file.lastPathComponent == Self.stampsFileName
            || (file.lastPathComponent.hasPrefix(".") && file.pathExtension == "tmp") {
            let size = (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
            if (try? FileManager.default.removeItem(at: file)) != nil { freed += size }
        }
        return freed
    }

    /// Keeps the `capacity` most recently used images within `maximumBytes` (the newest
    /// always stays); leftovers of killed runs go too.
    private func prune() {
        let stale = Date().addingTimeInterval(-3600)
        if let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey]) {
            for file in files where file.lastPathComponent.hasPrefix(".") && file.pathExtension == "tmp" {
                if ((try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast) < stale {
                    try? FileManager.default.removeItem(at: file)
                }
            }
        }
        var total = 0
        for (position, entry) in entries().enumerated() {
            total += entry.bytes
            if position > 0 && (position >= capacity || total > maximumBytes) { try? FileManager.default.removeItem(at: entry.url) }
        }
    }
}
