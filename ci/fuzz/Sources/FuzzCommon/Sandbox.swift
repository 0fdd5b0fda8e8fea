import Foundation

public enum Sandbox {
    /// An empty folder of its own, for relative paths an input names.
    public static let emptyFolder: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webpolicy-fuzz-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }()
}
