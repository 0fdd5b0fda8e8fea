import Foundation
import WebPolicyRuntime

/// The result of linting: normalized diagnostics and the sources they point into.
public struct LintReport: Sendable {
    /// Sorted and de-duplicated (`Diagnostic.normalized`).
    public var diagnostics: [Diagnostic]
    /// Every file read, by path, for source snippets.
    public var sources: [String: SourceFile]
    /// The policy files that were linted, in order (includes are not listed separately).
    public var lintedFiles: [String]

    public init(diagnostics: [Diagnostic], sources: [String: SourceFile], lintedFiles: [String]) {
        self.diagnostics = Diagnostic.normalized(diagnostics)
        self.sources = sources
        self.lintedFiles = lintedFiles
    }

    public func count(_ severity: Severity) -> Int { diagnostics.filter { $0.severity == severity }.count }

    /// `--strict`: warnings count, and are reported, as errors.
    public func promotingWarnings() -> LintReport {
        var report = self
        report.diagnostics = diagnostics.map { diagnostic in
            var promoted = diagnostic
            if promoted.severity == .warning { promoted.severity = .error }
            return promoted
        }
        return report
    }
}

/// Loads policies and runs the configured rules over them.
public struct Linter: Sendable {
    public var rules: [any LintRule.Type]
    public var configuration: LintConfiguration
    /// Relative paths are opened from here (default: the working folder) but shown as written.
    public var baseDirectory: String?

    public init(rules: [any LintRule.Type] = BuiltInRules.all, configuration: LintConfiguration = LintConfiguration(), baseDirectory: String? = nil) {
        self.rules = rules
        self.configuration = configuration
        self.baseDirectory = baseDirectory
    }

    /// Lints files and folders (every `*.yaml`/`*.yml` inside, hidden entries skipped); a
    /// `.json` file named on the command line is a bare content-blocker list.
    public func lint(paths: [String]) throws(InputError) -> LintReport {
        let files = try PolicyPaths.expand(paths, baseDirectory: baseDirectory, excluding: configuration.exclude, relativeTo: configuration.excludeBase)
        // Files are independent: lint them on all cores, then merge in file order.
        let results = files.parallelMap(minimumChunk: 1) { path in
            if Self.isContentBlockerList(path) {
                let report = lintContentBlockerList(path: path)
                return (diagnostics: report.diagnostics, files: report.sources.keys.sorted().compactMap { report.sources[$0] })
            }
            let result = PolicyLoader(baseDirectory: baseDirectory).load(path: path)
            return (diagnostics: result.diagnostics + check(result), files: result.files)
        }
        var diagnostics: [Diagnostic] = []
        var sources: [String: SourceFile] = [:]
        for result in results {
            diagnostics += result.diagnostics
            for file in result.files where sources[file.path] == nil { sources[file.path] = file }
        }
        return LintReport(diagnostics: diagnostics, sources: sources, lintedFiles: files.map(PathNormalizer.display))
    }

    /// Lints one policy file and returns the policy it loaded too, so `compile` need not load
    /// it again.
    public func lintLoading(path: String) throws(InputError) -> (report: LintReport, policy: Policy?) {
        let files = try PolicyPaths.expand([path], baseDirectory: baseDirectory)
        guard files.count == 1, let file = files.first else { throw InputError("\(path) is not one policy file") }
        let result = PolicyLoader(baseDirectory: baseDirectory).load(path: file)
        let sources = Dictionary(result.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let report = LintReport(diagnostics: result.diagnostics + check(result), sources: sources, lintedFiles: [PathNormalizer.display(file)])
        return (report, result.policy)
    }

    /// Lints policy text that is not on disk, and returns the policy it loaded.
    public func lintLoading(text: String, path: String) -> (report: LintReport, policy: Policy?) {
        let result = PolicyLoader(baseDirectory: baseDirectory).load(text: text, path: path)
        let sources = Dictionary(result.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        return (LintReport(diagnostics: result.diagnostics + check(result), sources: sources, lintedFiles: [path]), result.policy)
    }

    /// Lints policy text that is not on disk.
    public func lint(text: String, path: String) -> LintReport {
        let result = PolicyLoader(baseDirectory: baseDirectory).load(text: text, path: path)
        let sources = Dictionary(result.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        return LintReport(diagnostics: result.diagnostics + check(result), sources: sources, lintedFiles: [path])
    }

    private func check(_ result: LoadResult) -> [Diagnostic] {
        guard let policy = result.policy else { return [] }
        let facts = PolicyFacts(policy: policy, files: result.files)
        var diagnostics: [Diagnostic] = []
        // Only an unused suppression looks here: a list, not a set hashed on every run.
        var active: [String] = []
        active.reserveCapacity(rules.count)
        for rule in rules {
            guard let severity = configuration.severity(for: rule.description) else { continue }
            active.append(rule.description.id)
            var context = RuleContext(rule: rule.description, severity: severity, facts: facts)
            rule.init().check(policy, &context)
            diagnostics += context.diagnostics
        }
        guard configuration.inlineConfig else { return diagnostics }
        return Suppression.apply(diagnostics, files: result.files, ruleIDs: BuiltInRules.ids, activeRuleIDs: active)
    }
}

/// Turns the command line's paths into the policy files to lint.
public enum PolicyPaths {
    public static let extensions = ["yaml", "yml"]

    /// Files are kept as given (whatever their extension); folders are walked for policy files,
    /// skipping hidden files and folders (`.git`, `.build`, `.webpolicy.yml`). Sorted, so the
    /// order of output never depends on the file system.
    /// `exclude` patterns (relative to `excludeBase`) drop files found by walking folders.
    public static func expand(_ paths: [String], baseDirectory: String? = nil, excluding exclude: [PathGlob] = [], relativeTo excludeBase: String? = nil) throws(InputError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: PathNormalizer.opening(path, from: baseDirectory), isDirectory: &isDirectory) else {
                throw InputError("no such file or directory: \(path)")
            }
            if !isDirectory.boolValue {
                files.append(path)
                continue
            }
            var found: [String] = []
            walk(path, baseDirectory: baseDirectory, into: &found)
            if !exclude.isEmpty {
                let base = PathNormalizer.canonical(PathNormalizer.opening(excludeBase ?? ".", from: baseDirectory))
                found.removeAll { file in
                    let absolute = PathNormalizer.canonical(PathNormalizer.opening(file, from: baseDirectory))
                    guard absolute.hasPrefix(base + "/") else { return false }
                    let relative = String(absolute.dropFirst(base.count + 1))
                    return exclude.contains { $0.matches(relative) }
                }
            }
            files += found.sorted()
        }
        var seen = Set<String>()
        return files.filter { seen.insert(PathNormalizer.canonical(PathNormalizer.opening($0, from: baseDirectory))).inserted }
    }

    private static func walk(_ directory: String, baseDirectory: String?, into found: inout [String]) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: PathNormalizer.opening(directory, from: baseDirectory)) else { return }
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let path = directory == "." ? entry : (directory.hasSuffix("/") ? directory + entry : directory + "/" + entry)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: PathNormalizer.opening(path, from: baseDirectory), isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                walk(path, baseDirectory: baseDirectory, into: &found)
            } else if extensions.contains((entry as NSString).pathExtension.lowercased()) {
                found.append(path)
            }
        }
    }
}
