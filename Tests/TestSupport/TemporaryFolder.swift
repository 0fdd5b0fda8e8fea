import Foundation

/// Temporary folders and files for tests, removed when the test process exits. A run of the
/// suite makes hundreds of them (policies to lint, folders to compile into, traces to stream),
/// and each used to stay in the temporary folder for good.
public enum TemporaryFolder {
    /// A fresh, empty folder named `prefix-UUID`.
    public static func make(_ prefix: String) throws -> URL {
        let folder = location(prefix)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A fresh name in the temporary folder, not created: for what the code under test creates
    /// itself (a compile's output folder, a copied fixture, a trace file). Removed at exit.
    public static func location(_ prefix: String, extension pathExtension: String? = nil) -> URL {
        let name = "\(prefix)-\(UUID().uuidString)" + (pathExtension.map { ".\($0)" } ?? "")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        Registry.shared.add(url)
        return url
    }

    /// Removes everything handed out so far (also run at exit).
    public static func removeAll() {
        for url in Registry.shared.takeAll() { try? FileManager.default.removeItem(at: url) }
    }

    private final class Registry: @unchecked Sendable {
        static let shared = Registry()
        // Tests run in parallel: the list is guarded.
        private let lock = NSLock()
        private var urls: [URL] = []

        private init() {
            atexit { TemporaryFolder.removeAll() }
        }

        func add(_ url: URL) {
            lock.lock()
            urls.append(url)
            lock.unlock()
        }

        func takeAll() -> [URL] {
            lock.lock()
            defer { urls = []; lock.unlock() }
            return urls
        }
    }
}
