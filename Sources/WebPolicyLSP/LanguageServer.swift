import Foundation
import WebPolicyAudit
import WebPolicyKit
import WebPolicyRuntime

/// `webpolicy lsp`: the policy checked as it is typed (LSP 3.17 over JSON-RPC). The server
/// keeps the editor's open documents and lints each from its unsaved text as `lint` lints the
/// file — the same rules, `.webpolicy.yml`, suppressions and order — and publishes the findings
/// of every file the policy reads (its includes too) as that file's diagnostics.
///
/// It does no I/O of its own: `handle` takes a message's body and hands what goes out to
/// `send`; a lint after an edit is left to `scheduler` (a pause for the typing to stop, in
/// `StdioServer`; at once, in tests).
public final class LanguageServer: @unchecked Sendable {
    /// Runs a lint later: after the typing pauses.
    public typealias Scheduler = (_ work: @escaping @Sendable () -> Void) -> Void

    private let send: ([UInt8]) -> Void
    private let scheduler: Scheduler
    private var documents = DocumentStore()
    private var encoding = PositionEncoding.utf16
    /// The files each open document's last lint published diagnostics for (to clear them).
    private var published: [String: Set<String>] = [:]
    /// Each open policy's last lint: its version, report and text as a source file.
    private var lints: [String: (version: Int?, report: LintReport, file: SourceFile, policy: Policy?)] = [:]
    /// Each open policy as its last lint that loaded it left it (its includes merged): the
    /// names it declares for completion, its host patterns for hover, while the text is
    /// half-typed and does not load.
    private var loaded: [String: Policy] = [:]
    /// What each open policy's last lint worked out that its next one takes back: its entries
    /// as decoded, its url regexes as WebKit's parser read them.
    private var memos: [String: LintMemo] = [:]
    private var shutDown = false
    /// The editor asks for lenses again when told to (`workspace/codeLens/refresh`, LSP 3.16).
    private var refreshesLenses = false
    /// The ids of the requests the server sends.
    private var nextRequestID = 0
    /// The folder `lint` would run in: the workspace's, else the server's working folder.
    private var root = FileManager.default.currentDirectoryPath
    /// Set by `exit`: the status the process ends with (0 after `shutdown`, else 1).
    public private(set) var exitStatus: Int32?

    private let version: String

    /// `version`: what `initialize` reports as the server's.
    public init(version: String = "dev", send: @escaping ([UInt8]) -> Void, scheduler: @escaping Scheduler = { $0() }) {
        self.version = version
        self.send = send
        self.scheduler = scheduler
    }

    /// Handles one message's body.
    public func handle(_ body: [UInt8]) {
        guard let object = MessageBody.object(body) else {
            // JSON-RPC 2.0 §5.1: a body that is not JSON gets a parse error with a null id.
            reply(id: .null, error: (-32700, "the message is not a JSON object"))
            return
        }
        let method = object["method"] as? String
        let id = Self.id(object["id"])
        let params = object["params"] as? [String: Any] ?? [:]
        guard let method else { return }  // a response to a request of ours: none is sent yet
        if let id {
            request(method, id: id, params: params)
        } else {
            notification(method, params: params)
        }
    }

    private func request(_ method: String, id: JSONValue, params: [String: Any]) {
        if shutDown && method != "shutdown" {
            reply(id: id, error: (-32600, "the server is shut down"))
            return
        }
        switch method {
        case "initialize":
            // The workspace's folder stands for the working folder `lint` runs in: its
            // `.webpolicy.yml` (or the nearest above it) is the one the command line reads.
            if let rootURI = params["rootUri"] as? String {
                root = DocumentStore.path(ofURI: rootURI)
            } else if let rootPath = params["rootPath"] as? String {
                root = rootPath
            }
            let capabilities = params["capabilities"] as? [String: Any]
            let workspace = capabilities?["workspace"] as? [String: Any]
            refreshesLenses = (workspace?["codeLens"] as? [String: Any])?["refreshSupport"] as? Bool ?? false
            let general = capabilities?["general"] as? [String: Any]
            encoding = PositionEncoding.chosen(from: general?["positionEncodings"] as? [String] ?? [])
            reply(id: id, result: .object([
                ("capabilities", .object([
                    ("positionEncoding", .string(encoding.rawValue)),
                    // Whole texts on each change: a policy is small, and a whole text cannot drift.
                    ("textDocumentSync", .object([("openClose", .bool(true)), ("change", .int(1)), ("save", .object([("includeText", .bool(false))]))])),
                    ("codeActionProvider", .object([("codeActionKinds", .array([.string("quickfix"), .string(CodeActions.fixAllKind)]))])),
                    ("hoverProvider", .bool(true)),
                    ("completionProvider", .object([("triggerCharacters", .array([.string(" ")]))])),
                    ("definitionProvider", .bool(true)),
                    ("documentLinkProvider", .object([("resolveProvider", .bool(false))])),
                    ("documentSymbolProvider", .bool(true)),
                    ("codeLensProvider", .object([("resolveProvider", .bool(false))])),
                    ("executeCommandProvider", .object([("commands", .array([.string(TraceLens.command)]))])),
                ])),
                ("serverInfo", .object([("name", .string("webpolicy")), ("version", .string(version))])),
            ]))
        case "shutdown":
            shutDown = true
            reply(id: id, result: .null)
        case "textDocument/hover", "textDocument/definition":
            let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String ?? ""
            guard let lint = currentLint(of: uri), let position = position(params["position"], in: lint.file) else {
                reply(id: id, result: .null)
                return
            }
            if method == "textDocument/hover" {
                // A finding first; else what is under the cursor: a key, a url-filter, a
                // host pattern, a content-rule construct's first iOS.
                let yaml = !Self.isJSON(lint.file.text, path: lint.file.path)
                let about = (yaml ? SchemaCompletion.keyHover(at: position, in: lint.file) : nil)
                    ?? SchemaCompletion.urlFilterHover(at: position, in: lint.file, policy: lint.policy)
                    ?? lint.policy.flatMap { HostHover.hover(at: position, in: lint.file, policy: $0) }
                    ?? (yaml ? FeatureHover.value(at: position, in: lint.file) : nil)
                // A finding and what is under it both: the key's or the host's words after
                // the finding's.
                reply(id: id, result: Hover.hover(at: position, findings: lint.report.diagnostics, in: lint.file, encoding: encoding, then: about)
                    ?? about.map { .object([("contents", .object([("kind", .string("markdown")), ("value", .string($0))]))]) }
                    ?? .null)
            } else {
                reply(id: id, result: Navigation.definition(at: position, references(lint)) ?? .null)
            }
        case "textDocument/completion":
            // From the text as it is now, which need not parse: no lint needed.
            let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String ?? ""
            guard let text = documents.text(of: uri) else {
                reply(id: id, result: .array([]))
                return
            }
            let file = SourceFile(path: DocumentStore.path(ofURI: uri), text: text)
            // Another tool's YAML gets no policy keys; an empty buffer may become a policy.
            guard Self.isPolicy(text, path: file.path) || Self.mayBecomePolicy(text), !TraceLens.isTrace(file.path),
                  let position = position(params["position"], in: file) else {
                reply(id: id, result: .array([]))
                return
            }
            // The schema's keys and values, and the names this policy declares itself — in
            // YAML: a JSON policy's editor completes from the schema its settings name
            // (a `$schema` key is no part of a policy).
            guard !Self.isJSON(text, path: file.path) else {
                reply(id: id, result: .array([]))
                return
            }
            let own = loaded[uri].map { PolicyNames.items(line: position.line, column: position.column, in: file, policy: $0, encoding: encoding) } ?? []
            reply(id: id, result: .array(SchemaCompletion.items(line: position.line, column: position.column, in: file, encoding: encoding) + own))
        case "workspace/executeCommand":
            // A lens run: its line's decision said again, as a message the editor shows.
            if params["command"] as? String == TraceLens.command, let arguments = params["arguments"] as? [Any], arguments.count == 2,
               let line = arguments[0] as? Int, let title = arguments[1] as? String {
                notify("window/showMessage", .object([("type", .int(3)), ("message", .string("line \(line): \(title)"))]))
            }
            reply(id: id, result: .null)
        case "textDocument/codeLens":
            let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String ?? ""
            let path = DocumentStore.path(ofURI: uri)
            guard TraceLens.isTrace(path), let text = documents.text(of: uri) else {
                reply(id: id, result: .array([]))
                return
            }
            // Made now, from the trace and the policy as they are in the editor.
            reply(id: id, result: .array(TraceLens.lenses(of: text, path: path, root: root, policyText: openText(ofPath:), encoding: encoding).lenses))
        case "textDocument/documentLink":
            let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String ?? ""
            guard let lint = currentLint(of: uri) else {
                reply(id: id, result: .array([]))
                return
            }
            reply(id: id, result: .array(Navigation.documentLinks(references(lint), in: lint.file, encoding: encoding)))
        case "textDocument/documentSymbol":
            let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String ?? ""
            guard let lint = currentLint(of: uri) else {
                reply(id: id, result: .array([]))
                return
            }
            reply(id: id, result: .array(Navigation.symbols(in: lint.file, rules: lint.policy?.contentRules ?? [], encoding: encoding)))
        case "textDocument/codeAction":
            let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String ?? ""
            let range = params["range"] as? [String: Any]
            let first = (range?["start"] as? [String: Any])?["line"] as? Int ?? 0
            let last = (range?["end"] as? [String: Any])?["line"] as? Int ?? first
            guard let lint = currentLint(of: uri) else {
                reply(id: id, result: .array([]))
                return
            }
            reply(id: id, result: .array(CodeActions.actions(for: lint.report, in: lint.file, uri: uri, lines: min(first, last)...max(first, last), encoding: encoding,
                                                            suppressible: Self.suppressibleRuleIDs)))
        default:
            reply(id: id, error: (-32601, "webpolicy's server does not handle \(method)"))
        }
    }

    private func notification(_ method: String, params: [String: Any]) {
        let textDocument = params["textDocument"] as? [String: Any]
        let uri = textDocument?["uri"] as? String
        switch method {
        case "exit":
            exitStatus = shutDown ? 0 : 1
        case "textDocument/didOpen":
            guard let uri, let text = textDocument?["text"] as? String else { return }
            documents.open(uri: uri, text: text, version: textDocument?["version"] as? Int ?? 0)
            lint(uri)
        case "textDocument/didChange":
            guard let uri, let changes = params["contentChanges"] as? [[String: Any]], let text = changes.last?["text"] as? String else { return }
            let version = textDocument?["version"] as? Int ?? 0
            documents.change(uri: uri, text: text, version: version)
            scheduler { [weak self] in
                // Only the latest text: an edit that came since has its own lint coming.
                guard let self, self.documents.version(of: uri) == version else { return }
                self.lint(uri)
            }
        case "textDocument/didSave":
            // An include saved changes what the open policies that read it say.
            for open in documents.uris { lint(open) }
        case "textDocument/didClose":
            guard let uri else { return }
            documents.close(uri: uri)
            lints[uri] = nil
            memos[uri] = nil
            loaded[uri] = nil
            for path in published.removeValue(forKey: uri) ?? [] { publish([], for: DocumentStore.uri(ofPath: path), file: nil) }
        default:
            break
        }
    }

    /// The editor's text of a file, when it is open.
    private func openText(ofPath path: String) -> String? {
        documents.text(of: DocumentStore.uri(ofPath: path)) ?? documents.uris.first { DocumentStore.path(ofURI: $0) == path }.flatMap(documents.text(of:))
    }

    /// The lint of the document's latest text: the last one, or one made now when an edit
    /// came since (a code action must fix the text the editor has).
    private func currentLint(of uri: String) -> (report: LintReport, file: SourceFile, policy: Policy?)? {
        if let last = lints[uri], last.version == documents.version(of: uri) { return (last.report, last.file, last.policy) }
        lint(uri)
        return lints[uri].map { ($0.report, $0.file, $0.policy) }
    }

    /// The files the document itself names (not those its includes name).
    private func references(_ lint: (report: LintReport, file: SourceFile, policy: Policy?)) -> [Navigation.Reference] {
        lint.policy?.documents.filter { $0.file.path == lint.file.path }.flatMap(Navigation.references) ?? []
    }

    /// An LSP position as a 1-based line and scalar column of `file`.
    private func position(_ value: Any?, in file: SourceFile) -> SourcePosition? {
        guard let object = value as? [String: Any], let line = object["line"] as? Int, let character = object["character"] as? Int else { return nil }
        return SourcePosition(line: line + 1, column: encoding.column(ofCharacter: character, line: line + 1, in: file))
    }

    /// Lints an open document and publishes the findings of every file it read.
    private func lint(_ uri: String) {
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

    private func publish(_ diagnostics: [Diagnostic], for uri: String, file: SourceFile?) {
        notify("textDocument/publishDiagnostics", .object([
            ("uri", .string(uri)),
            ("diagnostics", .array(diagnostics.map { LSPDiagnostic.encode($0, in: file, encoding: encoding) })),
        ]))
    }

    private func notify(_ method: String, _ params: JSONValue) {
        write(.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]))
    }

    private func reply(id: JSONValue, result: JSONValue) {
        write(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]))
    }

    private func reply(id: JSONValue, error: (code: Int, message: String)) {
        write(.object([("jsonrpc", .string("2.0")), ("id", id), ("error", .object([("code", .int(error.code)), ("message", .string(error.message))]))]))
    }

    private func write(_ message: JSONValue) {
        var body: [UInt8] = []
        message.write(into: &body)
        send(MessageFraming.frame(body))
    }

    /// A request's id as it came: a number or a string (JSON-RPC 2.0 §4).
    private static func id(_ value: Any?) -> JSONValue? {
        switch value {
        case let number as NSNumber: return .int(number.intValue)
        case let string as String: return .string(string)
        default: return nil
        }
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
