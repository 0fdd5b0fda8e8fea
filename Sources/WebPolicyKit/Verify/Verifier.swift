import Foundation
import WebPolicyRuntime

/// `webpolicy verify`: the content-blocker lists of policies (as compile emits them, lint
/// errors or not) and bare lists, each judged by webpolicy's port of WebKit's parser and by
/// real WebKit (`RealWebKit`), side by side.
public enum Verifier {
    public struct Entry: Sendable {
        /// The policy or list file given.
        public var input: String
        /// The list's file name (a policy's lists are named as compile names them).
        public var list: String
        public var rules: Int
        /// Lint's error count, for a policy; nil for a bare list.
        public var lintErrors: Int?
        /// nil: accepted; else the WebKit error message the port predicts / WebKit gives.
        public var webpolicy: String?
        public var webKit: String?
        public var agree: Bool { webpolicy == webKit }
    }

    /// The lists of the inputs, with the port's verdict, and lint reports of the policies.
    public static func lists(for paths: [String], configuration: LintConfiguration) throws(InputError) -> (entries: [Entry], texts: [String], lint: LintReport) {
        var entries: [Entry] = []
        var texts: [String] = []
        var diagnostics: [Diagnostic] = []
        var sources: [String: SourceFile] = [:]
        let isList = paths.map { InputKind.reading(of: $0) == .contentBlockerList }
        for (path, isList) in zip(paths, isList) {
            if isList {
                guard let data = FileManager.default.contents(atPath: path) else { throw InputError("cannot read \(path)") }
                let text = String(decoding: data, as: UTF8.self)
                let parsed = WebKitRuleListParser.parse(text, maximumRuleCount: .max)
                var count = 0
                if case .success(let root) = JSONDocument.parse(text), case .array(let items) = root.value { count = items.count }
                entries.append(Entry(input: path, list: (path as NSString).lastPathComponent, rules: count,
                                     webpolicy: firstError(parsed.errors)))
                texts.append(text)
                continue
            }
            let (lint, policy) = try Linter(configuration: configuration).lintLoading(path: path)
            diagnostics += lint.diagnostics
            sources.merge(lint.sources) { first, _ in first }
            guard let policy else { continue }
            // The lists as compile writes them, those it references copied as they are: each
            // compiled on its own.
            let build = PolicyBuild(policy)
            for list in build.lists {
                let text = list.external?.file.text ?? JSONValue.array(list.rules.map(\.json)).serialized()
                entries.append(Entry(input: path, list: list.fileName, rules: list.external?.rules.count ?? list.rules.count, lintErrors: lint.count(.error),
                                     webpolicy: firstError(WebKitRuleListParser.parse(text, maximumRuleCount: build.plan.limit).errors)))
                texts.append(text)
            }
        }
        return (entries, texts, LintReport(diagnostics: diagnostics, sources: sources, lintedFiles: zip(paths, isList).filter { !$0.1 }.map(\.0)))
    }

    /// The error WebKit names for a list: it parses every rule before it compiles any
    /// url-filter (`ContentExtensionParser`, then `ContentExtensionCompiler`), so a url-filter
    /// error comes first only when no rule has another.
    static func firstError(_ errors: [WebKitParseIssue]) -> String? {
        let ordered = errors.filter { $0.kind != .error(.jsonInvalidRegex) } + errors.filter { $0.kind == .error(.jsonInvalidRegex) }
        guard let first = ordered.first, case .error(let error) = first.kind else { return nil }
        return error.message
    }

    /// Runs real WebKit on the lists and fills in its verdicts.
    public static func verify(_ paths: [String], configuration: LintConfiguration) throws(InputError) -> (entries: [Entry], lint: LintReport) {
        var (entries, texts, lint) = try lists(for: paths, configuration: configuration)
        let verdicts = try RealWebKit.compile(texts)
        for index in entries.indices { entries[index].webKit = verdicts[index] }
        return (entries, lint)
    }
}
