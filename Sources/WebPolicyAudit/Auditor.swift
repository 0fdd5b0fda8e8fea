import Dispatch
import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// `webpolicy audit`: reads an app's files into facts (every core, each file parsed and
/// dropped: trees cost about 2 KB a line, facts almost nothing), runs the module-wide steps,
/// then the rules over facts and policy; suppressions, `.webpolicy.yml` severities and the
/// baseline work as they do for lint.
public struct Auditor: Sendable {
    /// Reads one Swift file; nil when this build has no Swift reader (the SwiftAudit trait
    /// off), and then a tree with Swift files is an input error rather than a silent gap.
    public typealias SwiftReader = @Sendable (_ bytes: [UInt8], _ path: String) -> FileFacts

    public struct Options: Sendable {
        public var includeTests = false
        /// Audit the debug build: code under `#if DEBUG` counts as shipped.
        public var debugBuild = false
        /// Without a Swift reader, leave Swift files out (said in the summary) instead of
        /// refusing the tree: the build plugin of an app that turned the trait off.
        public var skipSwiftWithoutReader = false

        public init(includeTests: Bool = false, debugBuild: Bool = false, skipSwiftWithoutReader: Bool = false) {
            self.includeTests = includeTests
            self.debugBuild = debugBuild
            self.skipSwiftWithoutReader = skipSwiftWithoutReader
        }
    }

    public var configuration: LintConfiguration
    public var options: Options
    let swiftReader: SwiftReader?
    /// Told how many of the app's files are read (the caller ends it).
    public var progress: ProgressObserver?

    public init(configuration: LintConfiguration = LintConfiguration(), options: Options = Options(), swiftReader: SwiftReader?) {
        self.configuration = configuration
        self.options = options
        self.swiftReader = swiftReader
    }

    /// What was read: the inventory, the files' text for reports and suppressions, the tree.
    public struct Reading: Sendable {
        public var inventory: AppInventory
        public var sources: [String: SourceFile]
        public var tree: AppTree
    }

    public func read(paths: [String]) throws(InputError) -> Reading {
        var tree = try AppTree.find(paths: paths, includeTests: options.includeTests, exclude: configuration.exclude, excludeBase: configuration.excludeBase)
        if swiftReader == nil, let swift = tree.files.first(where: { $0.kind == .swift }) {
            guard options.skipSwiftWithoutReader else {
                throw InputError("\(swift.path): this webpolicy was built without its Swift reader (the SwiftAudit trait is off); build it with the default traits to audit Swift")
            }
            tree.skippedSwift = tree.files.filter { $0.kind == .swift }.count
            tree.files.removeAll { $0.kind == .swift }
        }
        let files = tree.files
        let results = UnsafeResults<FileResult>(count: files.count)
        progress?.begin(ProgressStage("reading the app", total: files.count, unit: .files))
        let counter = ProgressCounter(progress)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            results.store(Self.read(files[index], swiftReader: swiftReader), at: index)
            counter.add()
        }
        var facts: [FileFacts] = []
        var sources: [String: SourceFile] = [:]
        var lines = 0
        for result in results.values {
            guard let result else { continue }
            facts.append(result.facts)
            if let text = result.text {
                sources[result.facts.path] = SourceFile(path: result.facts.path, text: text)
                lines += result.lines
            }
        }
        return Reading(inventory: AppInventory(files: facts, lines: lines), sources: sources, tree: tree)
    }

    private struct FileResult: Sendable {
        var facts: FileFacts
        /// Source text, kept for snippets and suppressions (not for binary plists).
        var text: String?
        var lines: Int
    }

    private static func read(_ file: AppTree.File, swiftReader: SwiftReader?) -> FileResult {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            var facts = FileFacts(path: file.path, language: .plist)
            facts.problems.append(ReadProblem("cannot read this file", at: SourceLocation(path: file.path, range: SourceRange(at: SourcePosition(line: 1, column: 1)))))
            return FileResult(facts: facts, text: nil, lines: 0)
        }
        let bytes = [UInt8](data)
        let text = bytes.starts(with: Array("bplist".utf8)) ? nil : String(decoding: bytes, as: UTF8.self)
        let lines = bytes.reduce(into: 1) { count, byte in if byte == 0x0A { count += 1 } }
        switch file.kind {
        case .swift:
            var facts = swiftReader?(bytes, file.path) ?? FileFacts(path: file.path, language: .swift)
            // A package manifest is Swift, and says the package's platforms too.
            if let source = DeploymentTargetSource(path: file.path) { facts.deploymentTargets = source.targets(in: text ?? "") }
            return FileResult(facts: facts, text: text, lines: lines)
        case .objectiveC:
            return FileResult(facts: ObjCFactReader.read(bytes, path: file.path), text: text, lines: lines)
        case .interfaceBuilder:
            return FileResult(facts: InterfaceBuilderReader.read(bytes, path: file.path), text: text, lines: 0)
        case .buildSettings:
            var facts = FileFacts(path: file.path, language: .buildSettings)
            facts.deploymentTargets = DeploymentTargetSource(path: file.path)?.targets(in: text ?? "") ?? []
            return FileResult(facts: facts, text: nil, lines: 0)
        case .plist, .entitlements:
            var facts = FileFacts(path: file.path, language: .plist)
            switch PlistReader.read(bytes, path: file.path) {
            case .success(let root):
                facts.plist = InfoPlist(path: file.path, isEntitlements: file.kind == .entitlements, root: root)
            case .failure(let problem):
                facts.problems.append(problem)
            }
            return FileResult(facts: facts, text: text, lines: 0)
        }
    }

    /// Audits the app under `paths` against `policy` (nil: only the rules that need none).
    public func audit(_ reading: Reading, policy: Policy?, policySources: [SourceFile] = []) -> LintReport {
        let subject = AuditSubject(inventory: reading.inventory, policy: policy, debugBuild: options.debugBuild, scriptEscapers: configuration.scriptEscapers)
        var diagnostics: [Diagnostic] = []
        var active: [String] = []
        for rule in AuditRules.all {
            let description = rule.description
            guard let severity = configuration.severity(for: description) else { continue }
            if rule.needsPolicy && policy == nil { continue }
            active.append(description.id)
            var context = AuditRuleContext(rule: description, severity: severity)
            rule.init().check(subject, &context)
            diagnostics += context.diagnostics
        }
        // A binary property list has no lines: its findings sit at 1:1 and name their key.
        let binary = Set(reading.inventory.plists.map(\.path)).subtracting(reading.sources.keys)
        for index in diagnostics.indices where binary.contains(diagnostics[index].location.path) {
            diagnostics[index].notes.append(Diagnostic.Note("a binary property list has no lines: the key is the one the message names (plutil -convert xml1 shows it)"))
        }
        for problem in reading.inventory.problems {
            diagnostics.append(Diagnostic(ruleID: AuditCheck.unreadable.id, severity: .warning, message: problem.message, location: problem.location,
                                          hint: "the facts of the rest of the file, and of every other file, were read; fix the file or exclude it in .webpolicy.yml"))
        }
        var sources = reading.sources
        for file in policySources { sources[file.path] = file }
        if configuration.inlineConfig {
            // `// webpolicy:…` in Swift and Objective-C; `<!-- webpolicy:… -->` in XML plists
            // and Interface Builder files.
            let sorted = reading.sources.values.sorted { $0.path < $1.path }
            let code = sorted.filter { [".swift", ".m", ".mm", ".h"].contains(where: $0.path.hasSuffix) }
            let xml = sorted.filter { [".plist", ".entitlements", ".storyboard", ".xib"].contains(where: $0.path.hasSuffix) }
            let ids = AuditRules.descriptions.map(\.id)
            diagnostics = Suppressions.applyComments(diagnostics, files: code, marker: "//", ruleIDs: ids, activeRuleIDs: active)
            diagnostics = Suppressions.applyComments(diagnostics, files: xml, marker: "<!--", ruleIDs: ids, activeRuleIDs: active)
            // `# webpolicy:…` in the policy, for the findings placed on it; lint's own
            // suppressions there are lint's business (idle here).
            diagnostics = Suppressions.applyComments(diagnostics, files: policySources.sorted { $0.path < $1.path }, marker: "#",
                                                     ruleIDs: ids + BuiltInRules.ids, activeRuleIDs: active)
        }
        let audited = reading.tree.files.map(\.path)
        return LintReport(diagnostics: diagnostics, sources: sources, lintedFiles: audited)
    }
}

/// Checks of the audit that are not rules.
public enum AuditCheck: String, DocumentedCheck {
    case unreadable = "audit-unreadable"

    public var summary: String {
        switch self {
        case .unreadable: return "A Swift file that does not parse cleanly, a plist or storyboard that is not well-formed: the audit read what it could and says where it stopped (warning)."
        }
    }
}

/// Results written by index from `concurrentPerform`'s threads, each slot by one thread.
private final class UnsafeResults<Value>: @unchecked Sendable {
    private var storage: [Value?]
    private let lock = NSLock()

    init(count: Int) {
        storage = Array(repeating: nil, count: count)
    }

    func store(_ value: Value, at index: Int) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    var values: [Value?] { storage }
}
