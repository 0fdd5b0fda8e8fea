import ArgumentParser
import Foundation
import WebPolicyKit

/// `webpolicy cache`: where simulate, explain and diff keep their engine images, how much they
/// hold, and `--clean` to empty it.
struct Cache: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show the engine cache that simulate, explain and diff keep, or clean it.",
        discussion: """
        The cache keeps the engine images of the lists simulate, explain and diff build, so the \
        next run on the same rules starts at once: the 16 most recently used, within 512 MB \
        (WEBPOLICY_CACHE_MAX_MB sets another limit), least recently used out first. Its folder: \
        --cache-dir, else WEBPOLICY_CACHE_DIR, else ~/.cache/webpolicy (XDG_CACHE_HOME) or \
        ~/Library/Caches/webpolicy on macOS. Everything in it can be deleted at any time.
        """
    )

    @Flag(help: "Remove every cached image.")
    var clean = false

    @OptionGroup var cache: CacheOptions

    func run() throws {
        guard let engineCache = cache.cache else { throw InputError("no cache folder: --no-cache was given, or no home folder is known (set WEBPOLICY_CACHE_DIR)") }
        let megabytes = { (bytes: Int) in bytes < 100_000 ? "\((bytes + 999) / 1000) KB" : String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        if clean {
            print("removed \(megabytes(engineCache.clean())) from \(engineCache.directory.path)")
            return
        }
        let entries = engineCache.entries()
        let total = entries.reduce(0) { $0 + $1.bytes }
        print("\(engineCache.directory.path): \(entries.count) engine image\(entries.count == 1 ? "" : "s"), \(megabytes(total)) (keeps \(engineCache.capacity), within \(megabytes(engineCache.maximumBytes)))")
        let formatter = ISO8601DateFormatter()
        for entry in entries {
            print("  \(entry.url.lastPathComponent)  \(megabytes(entry.bytes))  last used \(formatter.string(from: entry.lastUsed))")
        }
    }
}
