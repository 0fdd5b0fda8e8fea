import Foundation
import WebPolicyRuntime

/// A loaded policy (absent when the file itself could not be read or parsed), the loader's
/// diagnostics, and every source file read on the way (for snippets in reports).
public struct LoadResult: Sendable {
    public var policy: Policy?
    public var diagnostics: [Diagnostic]
    public var files: [SourceFile]
}

/// Loads a policy file and, recursively, the files it includes; see `Policy` for the merge
/// order. Each file is read once: a file included twice (a diamond) contributes once, at its
/// first place. A file that includes itself, directly or not, is an `include-cycle` error.
public struct PolicyLoader: Sendable {
    /// Relative paths are opened from here (default: the working folder) but shown as written.
    public var baseDirectory: String?
    /// Texts to read instead of the files at these paths (absolute, standardized): an editor's
    /// unsaved buffers, which a policy's includes and lists are read from when they are open.
    public var overlay: [String: String] = [:]
    /// What the last load of the same buffer decoded (an editor's server); nil on the command line.
    public var memo: LintMemo?

    public init(baseDirectory: String? = nil, overlay: [String: String] = [:], memo: LintMemo? = nil) {
        self.baseDirectory = baseDirectory
        self.overlay = overlay
        self.memo = memo
    }

    /// A file as the loader reads it: from the overlay when it holds the path, else from disk.
    private func read(path: String, displayPath: String, reference: SourceLocation?, expecting expected: SourceReader.Expected = .policy) -> SourceReader.Outcome {
        if !overlay.isEmpty, let text = overlay[PathNormalizer.canonical(path)] {
            return SourceReader.read(bytes: Array(text.utf8), displayPath: displayPath, reference: reference, expecting: expected)
        }
        return SourceReader.read(path: path, displayPath: displayPath, reference: reference, expecting: expected)
    }

    public func load(path: String) -> LoadResult {
        var state = State()
        visit(path: PathNormalizer.display(path), chain: [], reference: nil, state: &state)
        return result(of: &state)
    }

    /// Loads policy text that is not on disk (rule examples, tests).
    public func load(text: String, path: String) -> LoadResult {
        var state = State()
        switch SourceReader.read(bytes: Array(text.utf8), displayPath: path) {
        case .problem(let diagnostic, let source):
            state.diagnostics.append(diagnostic)
            state.files.append(source ?? SourceFile(path: path, text: text))
            state.rootFailed = true
        case .file(let file):
            parse(file, chain: [], reference: nil, state: &state, canonical: path)
        }
        return result(of: &state)
    }

    private func result(of state: inout State) -> LoadResult {
        guard !state.documents.isEmpty, !state.rootFailed else { return LoadResult(policy: nil, diagnostics: state.diagnostics, files: state.files) }
        var policy = Policy(documents: state.documents)
        policy.contentRuleLists = readLists(of: state.documents, state: &state)
        // WebKit refuses a list over its rule limit whole; the app's other lists still load.
        let limit = RuleListSplitter.maximumRules(for: policy.targetVersion)
        for external in policy.contentRuleLists where external.rules.count > limit {
            state.diagnostics.append(Diagnostic(
                ruleID: CompileCheck.listSize.id, severity: .error,
                message: "the content-rule list \(external.file.path) has \(external.rules.count) rules; WebKit on iOS \(policy.targetVersion) refuses a list of more than \(limit)",
                location: external.reference.path.location, hint: "split the list into two files, each its own content-rule-lists entry"))
        }
        return LoadResult(policy: policy, diagnostics: state.diagnostics, files: state.files)
    }

    /// Each `content-rule-lists:` entry read as WebKit reads a list (the port of its parser):
    /// a list WebKit would refuse is an error at the list's own line and column; one listed
    /// twice is read once.
    private func readLists(of documents: [PolicyDocument], state: inout State) -> [ExternalContentRuleList] {
        var lists: [ExternalContentRuleList] = []
        var seen: Set<String> = []
        for document in documents {
            for reference in document.contentRuleLists {
                let display = PathNormalizer.resolve(reference.path.value, relativeTo: document.file.path)
                let path = PathNormalizer.opening(display, from: baseDirectory)
                guard seen.insert(PathNormalizer.canonical(path)).inserted else { continue }
                switch read(path: path, displayPath: display, reference: reference.path.location, expecting: .contentBlockerList) {
                case .problem(let diagnostic, let source):
                    state.diagnostics.append(diagnostic)
                    if let source { state.files.append(source) }
                case .file(let file):
                    state.files.append(file)
                    let parsed = ContentBlockerImporter.parseList(file)
                    state.diagnostics += parsed.diagnostics.map { diagnostic in
                        var located = diagnostic
                        located.notes.append(Diagnostic.Note("the list of this content-rule-lists entry", at: reference.path.location))
                        return located
                    }
                    guard let rules = parsed.rules else { continue }
                    lists.append(ExternalContentRuleList(reference: reference, file: file,
                                                         rules: rules.map { ($0.index, $0.node.jsonValue, $0.node.range) }))
                }
            }
        }
        return lists
    }

    private struct State {
        var documents: [PolicyDocument] = []
        var diagnostics: [Diagnostic] = []
        var files: [SourceFile] = []
        var loaded: Set<String> = []
        var rootFailed = false
    }

    private func visit(path displayPath: String, chain: [(canonical: String, display: String)], reference: LocatedString?, state: inout State) {
        let path = PathNormalizer.opening(displayPath, from: baseDirectory)
        let canonical = PathNormalizer.canonical(path)
        if let start = chain.firstIndex(where: { $0.canonical == canonical }), let reference {
            let cycle = (chain[start...].map(\.display) + [displayPath]).joined(separator: " → ")
            state.diagnostics.append(Diagnostic(
                ruleID: LoaderCheck.includeCycle.id, severity: .error,
                message: "include cycle: \(cycle)", location: reference.location,
                hint: "a file cannot include itself, directly or through other files"
            ))
            return
        }
        if state.loaded.contains(canonical) { return }
        state.loaded.insert(canonical)

        switch read(path: path, displayPath: displayPath, reference: reference?.location) {
        case .problem(let diagnostic, let source):
            state.diagnostics.append(diagnostic)
            if let source { state.files.append(source) }
            if reference == nil { state.rootFailed = true }
        case .file(let file):
            parse(file, chain: chain + [(canonical, displayPath)], reference: reference, state: &state, canonical: canonical)
        }
    }

    private func parse(_ file: SourceFile, chain: [(canonical: String, display: String)], reference: LocatedString?, state: inout State, canonical: String) {
        state.files.append(file)
        let composed = YAMLComposer.composing(file)
        let (root, yamlDiagnostics) = (composed.root, composed.diagnostics)
        // An Adblock Plus filter list (EasyList's .txt) is no YAML: say what it is, not what
        // libyaml makes of '&' and '*' (FilterListSyntax).
        if root == nil, !yamlDiagnostics.isEmpty, FilterListSyntax.looksLikeFilterList(file.text) {
            state.diagnostics.append(Diagnostic(
                ruleID: LoaderCheck.wrongType.id, severity: .error,
                message: "this file is an Adblock Plus filter list (EasyList syntax), not a policy",
                location: file.location(at: file.startPosition),
                hint: "convert it to WebKit content-blocker JSON first (\(FilterListSyntax.converters) write it), then 'webpolicy import' the JSON or pass it with --content-rules"))
            if reference == nil { state.rootFailed = true }
            return
        }
        state.diagnostics += yamlDiagnostics
        // No root: libyaml gave up on a syntax error, or the file holds only comments.
        guard let root else {
            if yamlDiagnostics.isEmpty {
                state.diagnostics.append(Diagnostic(
                    ruleID: LoaderCheck.fileEmpty.id, severity: .error, message: "\(file.path) holds only comments",
                    location: file.location(at: file.startPosition), hint: "a policy starts with 'webpolicy: 1' and a 'name'"
                ))
            }
            if reference == nil { state.rootFailed = true }
            return
        }
        let (document, diagnostics) = PolicyDecoder.decode(root, file: file, memo: composed.isContextFree ? memo : nil)
        state.diagnostics += diagnostics
        if reference != nil, let target = document.target {
            state.diagnostics.append(Diagnostic(
                ruleID: LoaderCheck.includeInvalid.id, severity: .error,
                message: "an included file cannot set 'target'; the including policy decides what it ships to",
                location: target.location, notes: reference.map { [Diagnostic.Note("included from here", at: $0.location)] } ?? []
            ))
        }
        let chain = chain.isEmpty ? [(canonical, file.path)] : chain
        for include in document.includes {
            let target = PathNormalizer.resolve(include.value, relativeTo: file.path)
            visit(path: target, chain: chain, reference: include, state: &state)
        }
        state.documents.append(document)
    }
}

/// Paths as users see them: relative stays relative, `./` and `a/../` disappear.
public enum PathNormalizer {
    public static func display(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." { parts.removeLast() } else if !absolute { parts.append(part) }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// `include` resolved against the folder of the file that names it.
    public static func resolve(_ include: String, relativeTo file: String) -> String {
        if include.hasPrefix("/") { return display(include) }
        let folder = (file as NSString).deletingLastPathComponent
        return display(folder.isEmpty ? include : folder + "/" + include)
    }

    /// The path to open for a displayed path, given the base directory relative paths start from.
    static func opening(_ path: String, from base: String?) -> String {
        guard let base, !path.hasPrefix("/") else { return path }
        return base + "/" + path
    }

    /// A key that is the same for every spelling of one file (symlinks resolved).
    public static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
