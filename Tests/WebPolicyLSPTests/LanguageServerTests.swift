import Foundation
import Testing
import TestSupport
@testable import WebPolicyKit
@testable import WebPolicyLSP
import WebPolicyRuntime

/// The server driven in process, as an editor drives it: messages in, what it sends out read
/// back through the framing.
final class Editor: @unchecked Sendable {
    private(set) var received: [[String: Any]] = []
    private var framing = MessageFraming()
    /// Lints the server put off (a pause in the typing), run when the test says so.
    var pending: [@Sendable () -> Void] = []
    lazy var server = LanguageServer(send: { [unowned self] bytes in
        for body in (try? self.framing.add(bytes)) ?? [] {
            if let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] { self.received.append(object) }
        }
    }, scheduler: { [unowned self] work in self.pending.append(work) })

    func send(_ object: [String: Any]) {
        var message = object
        message["jsonrpc"] = "2.0"
        server.handle(Array(try! JSONSerialization.data(withJSONObject: message)))
    }

    func initialize(encodings: [String] = ["utf-32", "utf-16"]) -> [String: Any] {
        send(["id": 1, "method": "initialize", "params": ["capabilities": ["general": ["positionEncodings": encodings]]]])
        send(["method": "initialized", "params": [:]])
        return received.removeFirst()
    }

    func open(_ path: String, text: String) {
        send(["method": "textDocument/didOpen", "params": ["textDocument": ["uri": URL(fileURLWithPath: path).absoluteString, "languageId": "yaml", "version": 1, "text": text]]])
    }

    func change(_ path: String, text: String, version: Int) {
        send(["method": "textDocument/didChange", "params": ["textDocument": ["uri": URL(fileURLWithPath: path).absoluteString, "version": version], "contentChanges": [["text": text]]]])
    }

    /// The diagnostics last published for `path`.
    func diagnostics(for path: String) -> [[String: Any]]? {
        let uri = URL(fileURLWithPath: path).absoluteString
        return received.last { $0["method"] as? String == "textDocument/publishDiagnostics" && ($0["params"] as? [String: Any])?["uri"] as? String == uri }
            .flatMap { ($0["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] }
    }
}

@Suite("webpolicy lsp: the server")
struct LanguageServerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var lintFixtures: [String] {
        ["ok", "err"].flatMap { folder in
            let base = root.appendingPathComponent("Tests/Fixtures/lint/\(folder)").path
            return ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted().map { base + "/" + $0 }
        }
    }

    /// A finding as the server and `lint --format json` both say it: rule, severity, message,
    /// range (1-based, scalar columns), the notes' places.
    static func key(lsp diagnostic: [String: Any]) -> String {
        func position(_ value: Any?) -> String {
            let object = value as? [String: Any]
            return "\((object?["line"] as? Int ?? -9) + 1):\((object?["character"] as? Int ?? -9) + 1)"
        }
        let range = diagnostic["range"] as? [String: Any]
        let severity = ["", "error", "warning", "info"][diagnostic["severity"] as? Int ?? 0]
        let notes = (diagnostic["relatedInformation"] as? [[String: Any]] ?? []).map { related -> String in
            let location = related["location"] as? [String: Any]
            let path = URL(string: location?["uri"] as? String ?? "")?.path ?? ""
            return "\(related["message"] ?? "") @\(path) \(position((location?["range"] as? [String: Any])?["start"]))"
        }
        return "\(diagnostic["code"] ?? "") \(severity) \(position(range?["start"]))-\(position(range?["end"])) \(diagnostic["message"] ?? "") \(notes)"
    }

    static func key(lint diagnostic: Diagnostic) -> String {
        let range = diagnostic.location.range
        let notes = diagnostic.notes.compactMap { note in note.location.map { "\(note.message) @\($0.path) \($0.start.line):\($0.start.column)" } }
        return "\(diagnostic.ruleID) \(diagnostic.severity.rawValue) \(range.start.line):\(range.start.column)-\(range.end.line):\(range.end.column) \(diagnostic.message) \(notes)"
    }

    /// Every lint fixture opened in the editor gets, for its own file, what `lint` reports of
    /// the file on disk.
    @Test(arguments: lintFixtures)
    func aPolicyOpenedInTheEditorGetsLintsFindings(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { return }
        let editor = Editor()
        let initialized = editor.initialize()
        #expect(((initialized["result"] as? [String: Any])?["capabilities"] as? [String: Any])?["positionEncoding"] as? String == "utf-32")
        editor.open(path, text: text)
        guard LanguageServer.isPolicy(text, path: path) else {
            // Not a policy by its content or name: another tool's YAML, left alone.
            #expect(editor.diagnostics(for: path) == nil)
            return
        }
        let published = try #require(editor.diagnostics(for: path), "published for the document itself, even when empty")
        let linted = try Linter(configuration: LanguageServer.configuration(for: path)).lint(paths: [path])
        let expected = linted.diagnostics.filter { $0.location.path == path }.map(Self.key(lint:))
        #expect(published.map(Self.key(lsp:)) == expected)
    }

    /// Half-typed YAML at every step of an edit gets findings, never a crash or a stale list:
    /// what is published last is the lint of the last text.
    @Test func halfTypedEditsAreLintedAndTheLastTextWins() throws {
        let folder = try TemporaryFolder.make("lsp-edits")
        let path = folder.appendingPathComponent("policy.yaml").path
        let editor = Editor()
        _ = editor.initialize()
        let final = "webpolicy: 1\nnavigation:\n  pages:\n    - \"*.example.com\"\n"
        editor.open(path, text: "")
        let steps = ["w", "webpolicy: 1\nnavigation:\n  pages:\n    - \"*.exa", "webpolicy: 1\nnavigation:\n  pages:\n\t- x", "webpolicy: 1\nnavigation:\n  pages:\n", "webpolicy: 1\nnavigation:\n  pages", final]
        for (number, text) in steps.enumerated() {
            editor.change(path, text: text, version: number + 2)
            // Each step's lint run at once: every half-typed text is linted.
            editor.pending.removeFirst()()
            let published = try #require(editor.diagnostics(for: path))
            // "w" is no policy yet: what the empty buffer was told is taken back.
            let expected = !LanguageServer.isPolicy(text, path: path) ? []
                : Linter(configuration: try LanguageServer.configuration(for: path)).lint(text: text, path: path).diagnostics.filter { $0.location.path == path }
            #expect(published.map(Self.key(lsp:)) == expected.map(Self.key(lint:)), "step \(number)")
            if number > 0 && number < steps.count - 1 { #expect(!published.isEmpty, "step \(number) has a finding") }
        }
    }

    /// Lints put off while typing run for the latest text only.
    @Test func aLintOfAnOlderTextIsSkipped() throws {
        let folder = try TemporaryFolder.make("lsp-debounce")
        let path = folder.appendingPathComponent("policy.yaml").path
        let editor = Editor()
        _ = editor.initialize()
        editor.open(path, text: "webpolicy: 1\n")
        let before = editor.received.count
        editor.change(path, text: "webpolicy: 1\nnavigation: [\n", version: 2)
        editor.change(path, text: "webpolicy: 1\nnavigation:\n  pages: [\"*.example.com\"]\n", version: 3)
        for work in editor.pending { work() }
        #expect(editor.received.count == before + 1, "one lint, of version 3")
        #expect(editor.diagnostics(for: path)?.contains { $0["code"] as? String == "yaml-syntax" } == false)
    }

    /// Columns in UTF-16 for a client that offers nothing else: a character beyond the Basic
    /// Multilingual Plane takes two units.
    @Test func columnsAreCountedAsTheClientAsks() throws {
        let folder = try TemporaryFolder.make("lsp-utf16")
        let path = folder.appendingPathComponent("policy.yaml").path
        let text = "webpolicy: 1\n# 🙂🙂\nnavigation:\n  pages: [\"🙂\", 7]\n"
        for (encodings, expected) in [([String](), "utf-16"), (["utf-32"], "utf-32")] {
            let editor = Editor()
            let result = editor.initialize(encodings: encodings)
            #expect(((result["result"] as? [String: Any])?["capabilities"] as? [String: Any])?["positionEncoding"] as? String == expected)
            editor.open(path, text: text)
            let lint = Linter().lint(text: text, path: path).diagnostics.filter { $0.location.range.start.line == 4 }
            let published = try #require(editor.diagnostics(for: path)).filter { (($0["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int == 3 }
            try #require(!lint.isEmpty && lint.count == published.count)
            for (finding, diagnostic) in zip(lint, published) {
                let column = finding.location.range.start.column
                let line = Array("  pages: [\"🙂\", 7]".unicodeScalars)
                let units = expected == "utf-16" ? line.prefix(column - 1).reduce(0) { $0 + $1.utf16.count } : column - 1
                #expect((((diagnostic["range"] as? [String: Any])?["start"] as? [String: Any])?["character"] as? Int) == units)
            }
        }
    }

    /// A workflow or any other YAML the editor opens gets no findings; a file named as a policy
    /// does, whatever it holds.
    @Test func onlyPoliciesAreLinted() throws {
        let folder = try TemporaryFolder.make("lsp-kinds")
        let editor = Editor()
        _ = editor.initialize()
        let workflow = folder.appendingPathComponent("ci.yml").path
        editor.open(workflow, text: "name: build\non: [push]\njobs: {}\n")
        #expect(editor.diagnostics(for: workflow) == nil)
        let named = folder.appendingPathComponent("shop.webpolicy.yaml").path
        editor.open(named, text: "name: shop\n")
        #expect(editor.diagnostics(for: named)?.isEmpty == false)
    }

    @Test func theLifecycleAndWhatItDoesNotHandle() {
        let editor = Editor()
        _ = editor.initialize()
        editor.send(["id": 7, "method": "textDocument/rename", "params": [:]])
        #expect((editor.received.last?["error"] as? [String: Any])?["code"] as? Int == -32601)
        editor.server.handle(Array("not json".utf8))
        #expect((editor.received.last?["error"] as? [String: Any])?["code"] as? Int == -32700)
        editor.send(["id": 8, "method": "shutdown"])
        #expect(editor.received.last?["id"] as? Int == 8)
        editor.send(["method": "exit"])
        #expect(editor.server.exitStatus == 0)
        let abrupt = Editor()
        _ = abrupt.initialize()
        abrupt.send(["method": "exit"])
        #expect(abrupt.server.exitStatus == 1, "exit without shutdown")
    }
}

@Suite("webpolicy lsp: message framing")
struct MessageFramingTests {
    @Test func messagesArriveInPiecesOfAnySize() throws {
        let bodies = ["{\"a\":1}", "{\"b\":\"é\"}", "{}"].map { Array($0.utf8) }
        let stream = bodies.flatMap(MessageFraming.frame) + Array("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 2\r\n\r\n{}".utf8)
        for size in [1, 2, 3, 7, 64, stream.count] {
            var framing = MessageFraming()
            var read: [[UInt8]] = []
            var index = 0
            while index < stream.count {
                read += try framing.add(stream[index..<min(index + size, stream.count)])
                index += size
            }
            #expect(read == bodies + [Array("{}".utf8)], "pieces of \(size)")
        }
    }

    @Test func aBrokenHeaderStopsTheStream() {
        for header in ["Content-Length: x\r\n\r\n", "Length 3\r\n\r\n", "X-Other: 1\r\n\r\n"] {
            var framing = MessageFraming()
            #expect(throws: MessageFraming.BrokenStream.self) { _ = try framing.add(Array(header.utf8)) }
        }
    }
}
