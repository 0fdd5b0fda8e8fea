import Foundation
import WebPolicyRuntime

/// Paths written into artefacts (the manifest's rule sources, a recorded trace's `policy:`
/// header) relative to a folder, so the bytes do not depend on the working folder.
public enum RelativePath {
    /// `path` as seen from `folder` (both relative to the working folder, or absolute).
    public static func of(_ path: String, from folder: String) -> String {
        let target = absolute(path).split(separator: "/")
        let base = absolute(folder).split(separator: "/")
        var common = 0
        while common < min(target.count, base.count), target[common] == base[common] { common += 1 }
        return (Array(repeating: "..", count: base.count - common) + target[common...].map(String.init)).joined(separator: "/")
    }

    public static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + (path.isEmpty ? "." : path)
        return (full as NSString).standardizingPath
    }
}
