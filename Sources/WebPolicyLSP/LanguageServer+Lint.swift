import Foundation
import WebPolicyAudit
import WebPolicyKit
import WebPolicyRuntime

/// How the server lints an open document and says what it found.
extension LanguageServer {
    /// Lints an open document and publishes the findings of every file it read.
    func lint(_ uri: String) {
        guard let text = documents.text(of: uri) else { return }
        let path = DocumentStore.path(ofURI: uri)
        if TraceLens.isTrace(path) {
            // A trace: its problems (and a policy that does not load) are its diagnostics.
            let problems = TraceLens.lenses(of: text, path: path, root: root, policyText: openText(ofPath:), encoding: encoding).problems
            publish(problems, for: uri, file: SourceFile(path: path, text: text))
            published[uri] = [path]
            return
        }
        // An editor starts the server for every YAML file: only policies are linted (a
        // top-level `webpolicy:` key, or a `.webpolicy.yaml` name), as `lint` finds them in
        // a folder. A workflow or a compose file gets no findings.
        guard Self.isPolicy(text, path: path) else {
            lints[uri] = nil
            if published[uri] != nil { for stale in published.removeValue(forKey: uri) ?? [] { publish([], for: DocumentStore.uri(ofPath: stale), file: nil) } }
            return
        }
        var report: LintReport
        let policy: Policy?
        var configurationProblem: Diagnostic?
        var linter: Linter
        do {
            linter = Linter(configuration: try Self.configuration(root: root))
        } catch {
            // A broken .webpolicy.yml is said where the editor shows it, not swallowed; the
            // policy is linted with lint's defaults meanwhile.
            linter = Linter(configuration: LintConfiguration())
            configurationProblem = Diagnostic(ruleID: "configuration", severity: .error, message: error.message + " (lint's defaults are used until it is fixed)",
                                              location: SourceLocation(path: path, range: SourceRange(at: SourcePosition(line: 1, column: 1))))
        }
        // Includes and lists open in the editor are read as they are there, unsaved.
        linter.overlay = openTexts(except: uri)
        linter.memo = memos[uri] ?? LintMemo()
        memos[uri] = linter.memo
        // The last lint of an imported block list is a tree of a million values: it is let go
        // of after this one's findings are out, on another thread, not before them.
        let previousLoaded = loaded.removeValue(forKey: uri)
        let previous = Discarded((lints.removeValue(forKey: uri), previousLoaded))
        defer { previous.release() }
        (report, policy) = linter.lintLoading(text: text, path: path)
        report = LintReport(diagnostics: report.diagnostics.map { WorkspacePaths.relative($0, root: root) }, sources: report.sources, lintedFiles: report.lintedFiles)
        if let configurationProblem { report = LintReport(diagnostics: report.diagnostics + [configurationProblem], sources: report.sources, lintedFiles: report.lintedFiles) }
        lints[uri] = (documents.version(of: uri), report, report.sources[path] ?? SourceFile(path: path, text: text), policy)
        loaded[uri] = policy ?? previousLoaded
        var byPath: [String: [Diagnostic]] = [path: []]
        for diagnostic in report.diagnostics { byPath[diagnostic.location.path, default: []].append(diagnostic) }
        for (file, diagnostics) in byPath.sorted(by: { $0.key < $1.key }) {
            let fileURI = file == path ? uri : DocumentStore.uri(ofPath: file)
            // An include open in the editor is published by its own lint (as it is included
            // here it may say less: no lint of its own rules' context).
            if fileURI != uri, documents.text(of: fileURI) != nil { continue }
            publish(diagnostics, for: fileURI, file: report.sources[file])
        }
        // A file an earlier lint reported on and this one did not: its findings are gone.
        for stale in (published[uri] ?? []).subtracting(byPath.keys) { publish([], for: DocumentStore.uri(ofPath: stale), file: nil) }
        published[uri] = Set(byPath.keys)
        // Open traces simulate against this policy's text: what they say of it may change —
        // their problems here, their lenses when the editor asks again.
        let traces = documents.uris.filter { TraceLens.isTrace(DocumentStore.path(ofURI: $0)) }
        for trace in traces { lint(trace) }
        if refreshesLenses, !traces.isEmpty {
            nextRequestID += 1
            write(.object([("jsonrpc", .string("2.0")), ("id", .string("webpolicy-\(nextRequestID)")), ("method", .string("workspace/codeLens/refresh"))]))
        }
    }

    /// The open documents' texts by their canonical paths, but `uri`'s.
    private func openTexts(except uri: String) -> [String: String] {
        var texts: [String: String] = [:]
        for open in documents.uris where open != uri {
            if let text = documents.text(of: open) { texts[PathNormalizer.canonical(DocumentStore.path(ofURI: open))] = text }
        }
        return texts
    }

    /// Whether the text is a policy, as `lint` tells in a folder: a top-level `webpolicy:`
    /// key, or a `*.webpolicy.yaml` name (then even empty, it is told what a policy starts with).
    public static func isPolicy(_ text: String, path: String) -> Bool {
        if InputKind.hasPolicyName(path) { return true }
        return InputKind.of(bytes: Array(text.utf8.prefix(InputKind.prefixLength))) == .policy
    }

    /// An empty buffer, or one holding the start of `webpolicy: 1` and nothing else: what a
    /// new policy looks like before its first line is written.
    static func mayBecomePolicy(_ text: String) -> Bool {
        let written = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return written.isEmpty || (!written.contains("\n") && "webpolicy: 1".hasPrefix(written))
    }

    /// A policy written in JSON (by name, or by its first character): the YAML-shaped
    /// completion and hovers read lines as YAML, and stay out of it.
    static func isJSON(_ text: String, path: String) -> Bool {
        path.lowercased().hasSuffix(".json") || text.unicodeScalars.first { !$0.properties.isWhitespace && $0 != "\u{FEFF}" } == "{"
    }

    /// The rule ids a suppression may name: lint's rules and the audit's.
    static let suppressibleRuleIDs = Set(BuiltInRules.ids + AuditRules.descriptions.map(\.id))

    /// The settings `lint` uses when run in `root`: the nearest `.webpolicy.yml` in it or above.
    public static func configuration(root: String) throws(InputError) -> LintConfiguration {
        var configuration = LintConfiguration()
        if let found = LintConfiguration.discover(from: root) {
            configuration = try LintConfiguration.load(path: found, knownRules: BuiltInRules.descriptions + AuditRules.descriptions)
        }
        configuration.otherRuleIDs = AuditRules.descriptions.map(\.id)
        return configuration
    }

    /// The findings of a file, with the version of its text they are of when it is open (LSP
    /// 3.15: an editor drops findings of a text it has since changed).
    func publish(_ diagnostics: [Diagnostic], for uri: String, file: SourceFile?) {
        var params: [(String, JSONValue)] = [("uri", .string(uri))]
        if let version = documents.version(of: uri) { params.append(("version", .int(version))) }
        params.append(("diagnostics", .array(diagnostics.map { LSPDiagnostic.encode($0, in: file, encoding: encoding) })))
        notify("textDocument/publishDiagnostics", .object(params))
    }
}

/// A value let go of on another thread: freeing a large lint's tree takes a tenth of a second
/// that the editor need not wait for.
private final class Discarded<Value>: @unchecked Sendable {
    private var value: Value?

    init(_ value: Value?) { self.value = value }

    func release() {
        guard value != nil else { return }
        DispatchQueue.global(qos: .utility).async { self.value = nil }
    }
}
