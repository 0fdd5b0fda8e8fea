import Foundation
import WebPolicyRuntime

/// What `WebPolicyBuildPlugin` runs for a target (through `webpolicy build-resources`): every
/// policy of the target linted and compiled into a folder of its own — the folder becomes a
/// resource of the target, which the app hands to `RuntimePolicy(compiledDirectory:)` — and
/// one Swift file that names those folders and their lists' identifiers and hashes.
public struct PolicyResourceBuilder: Sendable {
    public var configuration: LintConfiguration

    public init(configuration: LintConfiguration = LintConfiguration()) {
        self.configuration = configuration
    }

    /// One policy's share of the build.
    public struct Built: Sendable {
        /// The policy file as given.
        public var path: String
        /// Its resource folder's name: the file name without `.webpolicy.yaml`.
        public var folder: String
        public var artefacts: [Artefact]
        public var slug: String
    }

    public struct Result: Sendable {
        /// Every policy's lint and compile diagnostics.
        public var report: LintReport
        /// Empty when any policy has errors: nothing may be written then.
        public var built: [Built]
        public var hasErrors: Bool { report.count(.error) > 0 }
    }

    /// Lints and compiles `policies`; refuses two policies that would share a folder.
    public func build(_ policies: [String]) throws(InputError) -> Result {
        var folders: [String: String] = [:]
        for path in policies {
            let folder = Self.folderName(of: path)
            if let other = folders[folder] {
                throw InputError("\(other) and \(path) would both compile into the resource folder '\(folder)'; rename one")
            }
            folders[folder] = path
        }
        var diagnostics: [Diagnostic] = []
        var sources: [String: SourceFile] = [:]
        var built: [Built] = []
        for path in policies {
            let result = try PolicyCompiler(configuration: configuration).compile(path: path)
            diagnostics += result.report.diagnostics
            sources.merge(result.report.sources) { first, _ in first }
            guard !result.hasErrors else { continue }
            let slug = result.artefacts.first { $0.kind == .manifest }.map { String($0.fileName.dropLast(".manifest.json".count)) } ?? "policy"
            built.append(Built(path: path, folder: Self.folderName(of: path), artefacts: result.artefacts, slug: slug))
        }
        let report = LintReport(diagnostics: diagnostics, sources: sources, lintedFiles: policies)
        return Result(report: report, built: report.count(.error) > 0 ? [] : built)
    }

    /// Writes each policy's folder under `output` (only what this build made stays in it: a
    /// renamed policy leaves no second manifest behind) and the Swift accessor.
    public func write(_ result: Result, to output: String, swiftFile: String) throws(InputError) {
        for policy in result.built {
            let folder = (output as NSString).appendingPathComponent(policy.folder)
            try ArtefactWriter.write(policy.artefacts, to: folder, slug: policy.slug)
            let kept = Set(policy.artefacts.map(\.fileName))
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !kept.contains(name) {
                try? FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(name))
            }
        }
        try ArtefactWriter.writeFile(SwiftAccessor.render(result.built), to: swiftFile)
    }

    /// `app.webpolicy.yaml` → `app`; any other `NAME.yaml` → `NAME`.
    public static func folderName(of path: String) -> String {
        var name = (path as NSString).lastPathComponent
        for suffix in [".webpolicy.yaml", ".webpolicy.yml", ".yaml", ".yml"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            break
        }
        return name
    }
}
