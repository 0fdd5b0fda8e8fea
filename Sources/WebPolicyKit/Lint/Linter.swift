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
    /// Files in the folders named that are not policies, left out (`lint --verbose`).
    public var skippedFiles: [String] = []

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
    /// Unsaved texts to read instead of the files (`PolicyLoader.overlay`).
    public var overlay: [String: String] = [:]
    /// What one lint works out that the next lint of the same buffer can take back (an
    /// editor's server re-linting after each keystroke); nil on the command line, which lints once.
    public var memo: LintMemo?

    public init(rules: [any LintRule.Type] = BuiltInRules.all, configuration: LintConfiguration = LintConfiguration(), baseDirectory: String? = nil) {
        self.rules = rules
        self.configuration = configuration
        self.baseDirectory = baseDirectory
    }

    /// Lints files and folders (every policy inside, hidden entries skipped); a file named on
    /// the command line that holds a JSON array is a bare content-blocker list.
    public func lint(paths: [String]) throws(InputError) -> LintReport {
        let expansion = try PolicyPaths.expanding(paths, baseDirectory: baseDirectory, excluding: configuration.exclude, relativeTo: configuration.excludeBase)
        let files = expansion.files
        // Files are independent: lint them on all cores, then merge in file order.
        let results = files.parallelMap(minimumChunk: 1) { path in
            if isContentBlockerList(path) {
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
        var report = LintReport(diagnostics: diagnostics, sources: sources, lintedFiles: files.map(PathNormalizer.display))
        report.skippedFiles = expansion.skipped.map(PathNormalizer.display)
        return report
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
        let result = PolicyLoader(baseDirectory: baseDirectory, overlay: overlay, memo: memo).load(text: text, path: path)
        let sources = Dictionary(result.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        return (LintReport(diagnostics: result.diagnostics + check(result), sources: sources, lintedFiles: [path]), result.policy)
    }

    /// Lints policy text that is not on disk.
    public func lint(text: String, path: String) -> LintReport {
        let result = PolicyLoader(baseDirectory: baseDirectory, overlay: overlay, memo: memo).load(text: text, path: path)
        let sources = Dictionary(result.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        return LintReport(diagnostics: result.diagnostics + check(result), sources: sources, lintedFiles: [path])
    }

    func check(_ result: LoadResult, acceptedRegexes: PolicyFacts.AcceptedRegexes? = nil) -> [Diagnostic] {
        guard let policy = result.policy else { return [] }
        let facts = PolicyFacts(policy: policy, files: result.files, acceptedRegexes: acceptedRegexes, memo: memo)
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
        diagnostics = Cascades.removed(from: diagnostics, errorsElsewhere: result.diagnostics)
        guard configuration.inlineConfig else { return diagnostics }
        // A policy may also suppress an audit rule's finding placed on it (`bridge-unregistered`):
        // lint knows those ids, and leaves such suppressions to the audit.
        return Suppression.apply(diagnostics, files: result.files, ruleIDs: BuiltInRules.ids + configuration.otherRuleIDs, activeRuleIDs: active)
    }
}

/// Turns the command line's paths into the policy files to lint.
public enum PolicyPaths {
    /// The extensions a folder walk looks at; what decides is the content (`InputKind`).
    public static let extensions = ["yaml", "yml", "json"]

    /// The files to lint, and the files a folder walk looked at and left out.
    public struct Expansion: Sendable {
        public var files: [String] = []
        /// YAML and JSON files in the folders that are not policies (another tool's
        /// configuration, a content-blocker list), for `--verbose`.
        public var skipped: [String] = []
    }

    public static func expand(_ paths: [String], baseDirectory: String? = nil, excluding exclude: [PathGlob] = [], relativeTo excludeBase: String? = nil) throws(InputError) -> [String] {
        try expanding(paths, baseDirectory: baseDirectory, excluding: exclude, relativeTo: excludeBase).files
    }

    /// Files are kept as given (whatever their extension or content); folders are walked for
    /// policies — a top-level `webpolicy:` key, or a `*.webpolicy.yaml` name — skipping hidden
    /// files and folders (`.git`, `.build`, `.webpolicy.yml`). A folder that holds no policy
    /// is an input error: a CI job pointed at the wrong folder must not pass on nothing.
    /// Sorted, so the order of output never depends on the file system. `exclude` patterns
    /// (relative to `excludeBase`) drop files found by walking folders.
    public static func expanding(_ paths: [String], baseDirectory: String? = nil, excluding exclude: [PathGlob] = [], relativeTo excludeBase: String? = nil) throws(InputError) -> Expansion {
        var expansion = Expansion()
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: PathNormalizer.opening(path, from: baseDirectory), isDirectory: &isDirectory) else {
                throw InputError("no such file or directory: \(path)")
            }
            if !isDirectory.boolValue {
                expansion.files.append(path)
                continue
            }
            var found = Expansion()
            walk(path, baseDirectory: baseDirectory, into: &found)
            var excluded = 0
            if !exclude.isEmpty {
                let base = PathNormalizer.canonical(PathNormalizer.opening(excludeBase ?? ".", from: baseDirectory))
                let before = found.files.count
                found.files.removeAll { file in
                    let absolute = PathNormalizer.canonical(PathNormalizer.opening(file, from: baseDirectory))
                    guard absolute.hasPrefix(base + "/") else { return false }
                    let relative = String(absolute.dropFirst(base.count + 1))
                    return exclude.contains { $0.matches(relative) }
                }
                excluded = before - found.files.count
            }
            if found.files.isEmpty {
                throw InputError(noPolicies(in: path, skipped: found.skipped.count, excluded: excluded))
            }
            expansion.files += found.files.sorted()
            expansion.skipped += found.skipped.sorted()
        }
        var seen = Set<String>()
        expansion.files = expansion.files.filter { seen.insert(PathNormalizer.canonical(PathNormalizer.opening($0, from: baseDirectory))).inserted }
        return expansion
    }

    private static func noPolicies(in folder: String, skipped: Int, excluded: Int) -> String {
        var message = "\(folder == "." ? "the working folder" : folder) holds no policy: a policy is a YAML or JSON file with a top-level 'webpolicy:' key, or one named *.webpolicy.yaml"
        if skipped > 0 { message += "; \(skipped) other YAML/JSON file\(skipped == 1 ? " was" : "s were") skipped (--verbose lists them)" }
        if excluded > 0 { message += "; \(excluded) polic\(excluded == 1 ? "y was" : "ies were") excluded by the configuration's 'exclude'" }
        return message
    }

    private static func walk(_ directory: String, baseDirectory: String?, into found: inout Expansion) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: PathNormalizer.opening(directory, from: baseDirectory)) else { return }
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let path = directory == "." ? entry : (directory.hasSuffix("/") ? directory + entry : directory + "/" + entry)
            let opened = PathNormalizer.opening(path, from: baseDirectory)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: opened, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                walk(path, baseDirectory: baseDirectory, into: &found)
            } else if extensions.contains((entry as NSString).pathExtension.lowercased()) {
                if InputKind.of(path: opened) == .policy {
                    found.files.append(path)
                } else {
                    found.skipped.append(path)
                }
            }
        }
    }
}
