import Foundation

/// Why a compiled policy cannot be loaded. Each says what is wrong and where, in words an app
/// developer can act on (`description`, also `localizedDescription`).
public enum RuntimePolicyError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The folder cannot be read, or holds no manifest, or several.
    case compiledDirectory(path: String, problem: String)
    /// A file of the compiled policy cannot be read.
    case unreadable(path: String, problem: String)
    /// The manifest was written by a newer webpolicy than this runtime reads.
    case unsupportedManifestVersion(found: Int, supported: Int)
    /// The manifest is not valid JSON, or not a webpolicy manifest.
    case invalidManifest(message: String, line: Int, column: Int)
    /// The manifest names a list that was not given or is not in the folder.
    case missingList(identifier: String, file: String)
    /// A list is not the one the manifest was compiled with (another SHA-256): a stale file.
    case staleList(identifier: String, file: String, expectedSHA256: String, foundSHA256: String)
    /// A list that WebKit would refuse, with WebKit's reason at its line and column.
    case invalidList(identifier: String, file: String, message: String, line: Int, column: Int)
    /// The list's rule count is not the one the manifest records.
    case ruleCountMismatch(identifier: String, file: String, expected: Int, found: Int)

    public var description: String {
        switch self {
        case .compiledDirectory(let path, let problem): return "\(path): \(problem)"
        case .unreadable(let path, let problem): return "cannot read \(path): \(problem)"
        case .unsupportedManifestVersion(let found, let supported):
            return "the manifest is version \(found), written by a newer webpolicy; this runtime reads version \(supported) — update WebPolicyRuntime, or compile with the webpolicy that matches it"
        case .invalidManifest(let message, let line, let column): return "manifest \(line):\(column): \(message)"
        case .missingList(let identifier, let file): return "the manifest names the content-rule list \(identifier) (\(file)), which is missing"
        case .staleList(let identifier, let file, let expected, let found):
            return "\(file) is not the list the manifest was compiled with (SHA-256 \(found.prefix(16))…, the manifest says \(expected.prefix(16))… for \(identifier)): a stale file; copy the whole compiled folder again"
        case .invalidList(let identifier, let file, let message, let line, let column): return "\(file):\(line):\(column): \(message) (list \(identifier))"
        case .ruleCountMismatch(let identifier, let file, let expected, let found):
            return "\(file) holds \(found) rules that WebKit keeps, the manifest says \(expected) for \(identifier)"
        }
    }

    public var errorDescription: String? { description }
}
