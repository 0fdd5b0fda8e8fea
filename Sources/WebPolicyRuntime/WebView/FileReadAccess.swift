import Foundation

/// Why a file URL may not be loaded.
public enum FileAccessError: Error, Equatable, CustomStringConvertible {
    /// `webview.file-access` is none (or absent): the view loads no file URL.
    case noFileAccess
    /// The file is outside the folder the policy names.
    case outsideFolder(file: String, folder: String)

    public var description: String {
        switch self {
        case .noFileAccess: return "the policy's webview.file-access is none: the view loads no file URL"
        case .outsideFolder(let file, let folder): return "\(file) is outside \(folder), the only folder the policy lets the view read"
        }
    }
}

extension DecisionEngine {
    /// The folder to pass as `allowingReadAccessTo:` for a file of the app bundle at `bundle`:
    /// the one `webview.file-access` names, when the file is in it. OWASP MASTG-TEST-0077: the
    /// page may read every file under that folder, so it is never wider than the policy says.
    /// Decided here, beside the loads, so that a tool can replay it as the app asks it.
    public func fileReadAccess(for file: URL, bundle: URL) throws(FileAccessError) -> URL {
        guard let folderName = rules?.webView?.fileAccess else { throw .noFileAccess }
        let folder = bundle.appendingPathComponent(folderName, isDirectory: true).standardizedFileURL
        let path = file.standardizedFileURL.path
        let prefix = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        guard path.hasPrefix(prefix) else { throw .outsideFolder(file: path, folder: folder.path) }
        return folder
    }
}

extension RuntimePolicy {
    /// The folder to pass as `loadFileURL(_:allowingReadAccessTo:)`'s second argument for a
    /// file of the app bundle at `bundle` (`DecisionEngine.fileReadAccess`).
    public func fileReadAccess(for file: URL, bundle: URL) throws(FileAccessError) -> URL {
        try engine.fileReadAccess(for: file, bundle: bundle)
    }
}
