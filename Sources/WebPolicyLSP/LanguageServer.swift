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
    var documents = DocumentStore()
    var encoding = PositionEncoding.utf16
    /// The files each open document's last lint published diagnostics for (to clear them).
    var published: [String: Set<String>] = [:]
    /// Each open policy's last lint: its version, report and text as a source file.
    var lints: [String: (version: Int?, report: LintReport, file: SourceFile, policy: Policy?)] = [:]
    /// Each open policy as its last lint that loaded it left it (its includes merged): the
    /// names it declares for completion, its host patterns for hover, while the text is
    /// half-typed and does not load.
    var loaded: [String: Policy] = [:]
    /// What each open policy's last lint worked out that its next one takes back: its entries
    /// as decoded, its url regexes as WebKit's parser read them.
    var memos: [String: LintMemo] = [:]
    var shutDown = false
    /// The editor asks for lenses again when told to (`workspace/codeLens/refresh`, LSP 3.16).
    var refreshesLenses = false
    /// The ids of the requests the server sends.
    var nextRequestID = 0
    /// The folder `lint` would run in: the workspace's, else the server's working folder.
    var root = FileManager.default.currentDirectoryPath
    /// Set by `exit`: the status the process ends with (0 after `shutdown`, else 1).
    public private(set) var exitStatus: Int32?

    let version: String

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
        case "initialize": reply(id: id, result: initialize(params))
        case "shutdown":
            shutDown = true
            reply(id: id, result: .null)
        case "textDocument/hover": reply(id: id, result: hover(params))
        case "textDocument/definition": reply(id: id, result: definition(params))
        case "textDocument/completion": reply(id: id, result: completion(params))
        case "textDocument/codeAction": reply(id: id, result: codeActions(params))
        case "textDocument/codeLens": reply(id: id, result: codeLenses(params))
        case "textDocument/documentLink": reply(id: id, result: documentLinks(params))
        case "textDocument/documentSymbol": reply(id: id, result: documentSymbols(params))
        case "workspace/executeCommand": reply(id: id, result: executeCommand(params))
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
    func openText(ofPath path: String) -> String? {
        documents.text(of: DocumentStore.uri(ofPath: path)) ?? documents.uris.first { DocumentStore.path(ofURI: $0) == path }.flatMap(documents.text(of:))
    }

    /// The lint of the document's latest text: the last one, or one made now when an edit
    /// came since (a code action must fix the text the editor has).
    func currentLint(of uri: String) -> (report: LintReport, file: SourceFile, policy: Policy?)? {
        if let last = lints[uri], last.version == documents.version(of: uri) { return (last.report, last.file, last.policy) }
        lint(uri)
        return lints[uri].map { ($0.report, $0.file, $0.policy) }
    }

    /// The files the document itself names (not those its includes name).
    func references(_ lint: (report: LintReport, file: SourceFile, policy: Policy?)) -> [Navigation.Reference] {
        lint.policy?.documents.filter { $0.file.path == lint.file.path }.flatMap(Navigation.references) ?? []
    }

    /// An LSP position as a 1-based line and scalar column of `file`.
    func position(_ value: Any?, in file: SourceFile) -> SourcePosition? {
        guard let object = value as? [String: Any], let line = object["line"] as? Int, let character = object["character"] as? Int else { return nil }
        return SourcePosition(line: line + 1, column: encoding.column(ofCharacter: character, line: line + 1, in: file))
    }

    func notify(_ method: String, _ params: JSONValue) {
        write(.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]))
    }

    func reply(id: JSONValue, result: JSONValue) {
        write(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]))
    }

    private func reply(id: JSONValue, error: (code: Int, message: String)) {
        write(.object([("jsonrpc", .string("2.0")), ("id", id), ("error", .object([("code", .int(error.code)), ("message", .string(error.message))]))]))
    }

    func write(_ message: JSONValue) {
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
