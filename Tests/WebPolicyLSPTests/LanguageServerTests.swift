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

    /// An editor with `text` open as `name` in a new folder; the file's path.
    static func opening(_ text: String, as name: String, folder label: String) throws -> (editor: Editor, path: String) {
        let path = try TemporaryFolder.make(label).appendingPathComponent(name).path
        let editor = Editor()
        _ = editor.initialize()
        editor.open(path, text: text)
        return (editor, path)
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
        // Notes without a place, and the hint, are said at the finding.
        let notes = (diagnostic.notes.map { ($0.message, $0.location ?? diagnostic.location) } + (diagnostic.hint.map { [("hint: " + $0, diagnostic.location)] } ?? []))
            .map { "\($0.0) @\(URL(fileURLWithPath: $0.1.path).path) \($0.1.start.line):\($0.1.start.column)" }
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
        // As `lint` run in the workspace names the file: relative to it, and so every file
        // its messages name.
        let root = FileManager.default.currentDirectoryPath
        let named = path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
        let linted = try Linter(configuration: LanguageServer.configuration(root: root)).lint(paths: [named])
        let expected = linted.diagnostics.filter { $0.location.path == named }.map(Self.key(lint:))
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
            let published = editor.diagnostics(for: path) ?? []
            // "w" is no policy yet: what the empty buffer was told is taken back.
            let expected = !LanguageServer.isPolicy(text, path: path) ? []
                : Linter(configuration: try LanguageServer.configuration(root: FileManager.default.currentDirectoryPath)).lint(text: text, path: path).diagnostics.filter { $0.location.path == path }
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
        // The findings say which text they are of, so an editor can drop those of an older one.
        #expect((editor.received.last?["params"] as? [String: Any])?["version"] as? Int == 3)
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

    /// A broken `.webpolicy.yml` is a finding, and the policy is linted with lint's defaults
    /// meanwhile: its own findings stay in view.
    @Test func aBrokenConfigurationIsAFindingAndLintGoesOn() throws {
        let folder = try TemporaryFolder.make("lsp-config")
        try "rules:\n  no-such-rule: error\n".write(to: folder.appendingPathComponent(".webpolicy.yml"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("p.yaml").path
        let editor = Editor()
        editor.send(["id": 1, "method": "initialize", "params": ["rootUri": folder.absoluteString, "capabilities": [:]]])
        editor.open(path, text: "webpolicy: 1\nname: p\nwebview:\n  lockdown: yes-please\n")
        let codes = editor.diagnostics(for: path)?.compactMap { $0["code"] as? String } ?? []
        #expect(codes.contains("configuration") && codes.contains("invalid-value"), "\(codes)")
    }

    /// Bytes that are not UTF-8 in a message's strings are read as U+FFFD, not refused.
    @Test func aBufferWithStrayBytesIsStillLinted() throws {
        let editor = Editor()
        _ = editor.initialize()
        let path = try TemporaryFolder.make("lsp-bytes").appendingPathComponent("p.yaml").path
        let uri = URL(fileURLWithPath: path).absoluteString
        var body = Array(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":""#.utf8) + Array(uri.utf8)
        body += Array(#"","languageId":"yaml","version":1,"text":"webpolicy: 1\nname: p\n# "#.utf8) + [0xFF, 0xFE] + Array(#"\n"}}}"#.utf8)
        editor.server.handle(body)
        #expect(editor.diagnostics(for: path) != nil)
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

@Suite("webpolicy lsp: hover, links, definitions, symbols")
struct NavigationTests {
    static func request(_ editor: Editor, _ method: String, _ path: String, position: (line: Int, character: Int)? = nil) -> Any? {
        var params: [String: Any] = ["textDocument": ["uri": URL(fileURLWithPath: path).absoluteString]]
        if let position { params["position"] = ["line": position.line, "character": position.character] }
        editor.send(["id": 90, "method": method, "params": params])
        return editor.received.last { $0["id"] as? Int == 90 }?["result"] as Any?
    }

    @Test func anIncludeIsALinkAndADefinition() throws {
        let folder = try TemporaryFolder.make("lsp-links")
        let path = folder.appendingPathComponent("app.yaml").path
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("shared"), withIntermediateDirectories: true)
        try "webpolicy: 1\nname: shared\n".write(to: folder.appendingPathComponent("shared/trackers.yaml"), atomically: true, encoding: .utf8)
        try "[{\"trigger\": {\"url-filter\": \"ads\"}, \"action\": {\"type\": \"block\"}}]\n".write(to: folder.appendingPathComponent("lists.json"), atomically: true, encoding: .utf8)
        let text = "webpolicy: 1\nname: app\ninclude:\n  - shared/trackers.yaml\ncontent-rule-lists:\n  - path: lists.json\n"
        let editor = Editor()
        _ = editor.initialize()
        editor.open(path, text: text)
        let links = try #require(Self.request(editor, "textDocument/documentLink", path) as? [[String: Any]])
        let targets = links.compactMap { URL(string: $0["target"] as? String ?? "")?.standardizedFileURL.path }
        #expect(targets == [folder.appendingPathComponent("shared/trackers.yaml").standardizedFileURL.path, folder.appendingPathComponent("lists.json").standardizedFileURL.path])
        let start = (links.first?["range"] as? [String: Any])?["start"] as? [String: Any]
        #expect(start?["line"] as? Int == 3 && start?["character"] as? Int == 4)
        let definition = try #require(Self.request(editor, "textDocument/definition", path, position: (3, 10)) as? [String: Any])
        #expect(URL(string: definition["uri"] as? String ?? "")?.standardizedFileURL.path == folder.appendingPathComponent("shared/trackers.yaml").standardizedFileURL.path)
        #expect(Self.request(editor, "textDocument/definition", path, position: (1, 2)) is NSNull, "nothing is named on line 2")
        editor.change(path, text: text.replacingOccurrences(of: "shared/trackers.yaml", with: "shared/missing.yaml"), version: 2)
        #expect(Self.request(editor, "textDocument/definition", path, position: (3, 10)) is NSNull, "a file that is not there has no definition")
    }

    /// An include open in the editor is read as it is there, unsaved, and its findings are its
    /// own lint's: fixing it in the editor clears them, whatever the including policy's lint.
    @Test func anOpenIncludeIsReadUnsaved() throws {
        let folder = try TemporaryFolder.make("lsp-overlay")
        let main = folder.appendingPathComponent("main.yaml").path, shared = folder.appendingPathComponent("shared.yaml").path
        let broken = "webpolicy: 1\nname: shared\ncookies:\n  - name: s\n    value: v\n    domain: example.com\n    secure: yes\n"
        try broken.write(toFile: shared, atomically: true, encoding: .utf8)
        let editor = Editor()
        _ = editor.initialize()
        editor.open(shared, text: broken.replacingOccurrences(of: "secure: yes", with: "secure: true"))
        #expect(editor.diagnostics(for: shared)?.contains { $0["code"] as? String == "invalid-boolean" } == false)
        editor.open(main, text: "webpolicy: 1\nname: main\ninclude:\n  - shared.yaml\n")
        #expect(editor.diagnostics(for: shared)?.contains { $0["code"] as? String == "invalid-boolean" } == false, "the disk's old text is not shown over the buffer's")
        #expect(editor.diagnostics(for: main)?.contains { $0["code"] as? String == "invalid-boolean" } == false)
    }

    @Test func aFindingsHoverIsItsRulesDocumentation() throws {
        let text = try String(contentsOf: CodeActionTests.fixtures.appendingPathComponent("every-fix.yaml"), encoding: .utf8)
        let (editor, path) = try Editor.opening(text, as: "p.yaml", folder: "lsp-hover")
        let finding = try #require(Linter().lint(text: text, path: path).diagnostics.first { Hover.rules[$0.ruleID] != nil && $0.location.path == path })
        let start = finding.location.range.start
        let hover = try #require(Self.request(editor, "textDocument/hover", path, position: (start.line - 1, start.column - 1)) as? [String: Any])
        let value = try #require((hover["contents"] as? [String: Any])?["value"] as? String)
        let rule = try #require(Hover.rules[finding.ruleID])
        #expect(value.contains("**\(finding.ruleID)**") && value.contains(finding.message) && value.contains(rule.rationale))
        #expect(Self.request(editor, "textDocument/hover", path, position: (0, 0)) is NSNull, "no finding on 'webpolicy: 1'")
    }

    @Test func sectionsAndNamedRulesAreSymbols() throws {
        let text = "webpolicy: 1\nname: p\ncontent-rules:\n  - id: block-ads\n    action: block\n    url-filter: ads\n\nnavigation:\n  pages: [\"*.example.com\"]\n"
        let (editor, path) = try Editor.opening(text, as: "p.yaml", folder: "lsp-symbols")
        let symbols = try #require(Self.request(editor, "textDocument/documentSymbol", path) as? [[String: Any]])
        #expect(symbols.map { $0["name"] as? String } == ["webpolicy", "name", "content-rules", "navigation"])
        let rules = symbols[2]
        #expect((rules["children"] as? [[String: Any]])?.map { $0["name"] as? String } == ["block-ads"])
        #expect((((rules["range"] as? [String: Any])?["end"] as? [String: Any])?["line"] as? Int) == 5, "the section ends at its last line, not the blank one")
    }
}

@Suite("webpolicy lsp: code actions")
struct CodeActionTests {
    static let fixtures = LanguageServerTests.root.appendingPathComponent("Tests/Fixtures/fix")

    /// LSP text edits applied to a text (positions in UTF-32: scalars), last first.
    static func apply(_ edits: [[String: Any]], to text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0).unicodeScalars) }
        func offset(_ position: Any?) -> (line: Int, character: Int) {
            let object = position as? [String: Any]
            return (object?["line"] as? Int ?? 0, object?["character"] as? Int ?? 0)
        }
        let sorted = edits.sorted { left, right in
            let (a, b) = (offset((left["range"] as? [String: Any])?["start"]), offset((right["range"] as? [String: Any])?["start"]))
            return (a.line, a.character) > (b.line, b.character)
        }
        for edit in sorted {
            let range = edit["range"] as? [String: Any]
            let (start, end) = (offset(range?["start"]), offset(range?["end"]))
            var flat: [Unicode.Scalar] = []
            var startIndex = 0, endIndex = 0
            for (number, line) in lines.enumerated() {
                if number == start.line { startIndex = flat.count + min(start.character, line.count) }
                if number == end.line { endIndex = flat.count + min(end.character, line.count) }
                flat += line
                if number < lines.count - 1 { flat.append("\n") }
            }
            if end.line >= lines.count { endIndex = flat.count }
            flat.replaceSubrange(startIndex..<endIndex, with: Array((edit["newText"] as? String ?? "").unicodeScalars))
            lines = String(String.UnicodeScalarView(flat)).split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0).unicodeScalars) }
        }
        return lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
    }

    static func actions(_ editor: Editor, _ path: String, lines: ClosedRange<Int>) -> [[String: Any]] {
        editor.send(["id": 50, "method": "textDocument/codeAction", "params": [
            "textDocument": ["uri": URL(fileURLWithPath: path).absoluteString],
            "range": ["start": ["line": lines.lowerBound, "character": 0], "end": ["line": lines.upperBound, "character": 0]],
            "context": ["diagnostics": []],
        ]])
        return editor.received.last { $0["id"] as? Int == 50 }?["result"] as? [[String: Any]] ?? []
    }

    static func edits(of action: [String: Any], _ path: String) -> [[String: Any]] {
        ((action["edit"] as? [String: Any])?["changes"] as? [String: Any])?[URL(fileURLWithPath: path).absoluteString] as? [[String: Any]] ?? []
    }

    /// The whole-file actions write what `lint --fix` and `lint --fix --unsafe-fixes` write.
    @Test func fixingTheWholeFileWritesWhatLintFixWrites() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("every-fix.yaml"), encoding: .utf8)
        let (editor, path) = try Editor.opening(text, as: "p.yaml", folder: "lsp-fix")
        let all = Self.actions(editor, path, lines: 0...10_000).filter { $0["kind"] as? String == "source.fixAll.webpolicy" }
        #expect(all.count == 2)
        let unsafe = try #require(all.first { ($0["title"] as? String)?.contains("--unsafe-fixes") == true })
        let expected = try String(contentsOf: Self.fixtures.appendingPathComponent("every-fix.fixed.yaml"), encoding: .utf8)
        #expect(Self.apply(Self.edits(of: unsafe, path), to: text) == expected)
        let certain = try #require(all.first { ($0["title"] as? String)?.contains("--unsafe-fixes") == false })
        let report = Linter().lint(text: text, path: path)
        let lintFix = FixApplier.apply(report.diagnostics.compactMap(\.fix).filter { !$0.changesMeaning }, to: SourceFile(path: path, text: text)).text
        #expect(Self.apply(Self.edits(of: certain, path), to: text) == lintFix)
        #expect(lintFix != expected, "the certain fixes leave the one that changes meaning")
    }

    /// Each finding's fix, applied alone, takes that finding away; a suppression hides it once
    /// its reason is written, and until then lint says it gives none.
    @Test func aFindingsFixAndSuppressionDoWhatTheySay() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("every-fix.yaml"), encoding: .utf8)
        let (editor, path) = try Editor.opening(text, as: "p.yaml", folder: "lsp-quickfix")
        let findings = Linter().lint(text: text, path: path).diagnostics.filter { $0.location.path == path }
        var fixed = 0, suppressed = 0
        for finding in findings {
            let line = finding.location.range.start.line - 1
            let actions = Self.actions(editor, path, lines: line...line).filter { action in
                ((action["diagnostics"] as? [[String: Any]])?.first?["code"] as? String) == finding.ruleID
                    && (((action["diagnostics"] as? [[String: Any]])?.first?["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int == line
            }
            let key = "\(finding.ruleID) at \(finding.location.range.start)"
            func remaining(_ edited: String) -> [Diagnostic] {
                Linter().lint(text: edited, path: path).diagnostics.filter { $0.ruleID == finding.ruleID && $0.message == finding.message }
            }
            if finding.fix != nil {
                let fix = try #require(actions.first { ($0["title"] as? String)?.hasPrefix("Fix") == true }, "\(key) offers its fix")
                #expect(remaining(Self.apply(Self.edits(of: fix, path), to: text)).isEmpty, "\(key): fixed")
                fixed += 1
            }
            let suppression = actions.first { ($0["title"] as? String)?.hasPrefix("Suppress") == true }
            guard LanguageServer.suppressibleRuleIDs.contains(finding.ruleID) else {
                #expect(suppression == nil, "\(key): a broken value is fixed, not suppressed")
                continue
            }
            let suppress = try #require(suppression, "\(key) offers a suppression")
            let withComment = Self.apply(Self.edits(of: suppress, path), to: text)
            let unexplained = Linter().lint(text: withComment, path: path).diagnostics
            #expect(unexplained.contains { $0.message.contains("reason") && $0.location.range.start.line == finding.location.range.start.line }, "\(key): a suppression without its reason is reported")
            let explained = withComment.replacingOccurrences(of: "disable-next-line \(finding.ruleID) -- \n", with: "disable-next-line \(finding.ruleID) -- reviewed\n")
            #expect(remaining(explained).isEmpty, "\(key): suppressed once it says why")
            suppressed += 1
        }
        #expect(fixed > 10)
        #expect(suppressed > 3)
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

@Suite("webpolicy lsp: completion and key hover, from the schema")
struct CompletionTests {
    /// The labels offered where `|` is in the text (at its end without one).
    static func labels(_ marked: String) throws -> [String] {
        let marked = marked.contains("|") ? marked : marked + "|"
        let before = marked[..<marked.firstIndex(of: "|")!]
        let text = marked.replacingOccurrences(of: "|", with: "")
        let (editor, path) = try Editor.opening(text, as: "p.yaml", folder: "lsp-complete")
        let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
        editor.send(["id": 70, "method": "textDocument/completion", "params": [
            "textDocument": ["uri": URL(fileURLWithPath: path).absoluteString],
            "position": ["line": lines.count - 1, "character": lines[lines.count - 1].unicodeScalars.count],
        ]])
        let items = editor.received.last { $0["id"] as? Int == 70 }?["result"] as? [[String: Any]] ?? []
        return items.compactMap { $0["label"] as? String }
    }

    @Test func keysWhereTheCursorIs() throws {
        let top = try Self.labels("webpolicy: 1\nname: p\nna")
        #expect(top.contains("navigation") && top.contains("content-rules") && top.contains("webview"))
        let navigation = try Self.labels("webpolicy: 1\nnavigation:\n  pages:\n    - \"*.example.com\"\n  ")
        #expect(navigation.contains("frames") && navigation.contains("new-windows") && !navigation.contains("webview"))
        let rule = try Self.labels("webpolicy: 1\ncontent-rules:\n  - id: x\n    ")
        #expect(rule.contains("url-filter") && rule.contains("action") && rule.contains("resource-type"))
        let newItem = try Self.labels("webpolicy: 1\ncontent-rules:\n  - ")
        #expect(newItem.contains("url-filter"))
        let nested = try Self.labels("webpolicy: 1\ncontent-rules:\n  - action: redirect\n    redirect:\n      ")
        #expect(nested.contains("url") && nested.contains("transform") && !nested.contains("action"))
    }

    @Test func aRulesActionTakesItsOwnParametersOnly() throws {
        let block = try Self.labels("webpolicy: 1\ncontent-rules:\n  - action: block  # the tracker\n    url-filter: ads\n    ")
        #expect(block.contains("resource-type") && block.contains("if-domain"))
        #expect(!block.contains("selector") && !block.contains("notification") && !block.contains("redirect") && !block.contains("priority") && !block.contains("request-headers"))
        // The action below the cursor counts too, quoted or not.
        let hiding = try Self.labels("webpolicy: 1\ncontent-rules:\n  - url-filter: ads\n    |\n    action: \"css-display-none\"\n")
        #expect(hiding.contains("selector") && !hiding.contains("notification") && !hiding.contains("action"))
        let headers = try Self.labels("webpolicy: 1\ncontent-rules:\n  - action: modify-headers\n    ")
        #expect(headers.contains("priority") && headers.contains("request-headers") && headers.contains("response-headers") && !headers.contains("selector"))
        // No action yet: every parameter may still come.
        let open = try Self.labels("webpolicy: 1\ncontent-rules:\n  - url-filter: ads\n    ")
        #expect(open.contains("selector") && open.contains("redirect"))
    }

    @Test func valuesOfAnEnumeratedKey() throws {
        let actions = try Self.labels("webpolicy: 1\ncontent-rules:\n  - url-filter: ads\n    action: ")
        #expect(actions.contains("block") && actions.contains("css-display-none") && actions.contains("make-https"))
        let types = try Self.labels("webpolicy: 1\ncontent-rules:\n  - action: block\n    resource-type: [script, ")
        #expect(types.contains("image") && types.contains("ping"))
        let lockdown = try Self.labels("webpolicy: 1\nwebview:\n  lockdown: ")
        #expect(lockdown == ["true", "false", "device"], "booleans as YAML writes them, not 1 and 0")
    }

    /// Over a url-filter: what WebKit makes of it, compiled, universal or refused.
    @Test func aURLFiltersHoverSaysWhatWebKitMakesOfIt() throws {
        let text = "webpolicy: 1\nname: p\ncontent-rules:\n  - action: block\n    url-filter: '^https?://ads\\.'\n  - action: block\n    url-filter: \"(a|b)\"\n  - action: css-display-none\n    selector: .ad\n    url-filter: .*\n"
        let (editor, path) = try Editor.opening(text, as: "p.yaml", folder: "lsp-urlfilter")
        func hover(_ line: Int) -> String {
            ((NavigationTests.request(editor, "textDocument/hover", path, position: (line, 20)) as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        }
        #expect(hover(4).contains("compiles it") && hover(4).contains("from the start of the URL"), "\(hover(4))")
        #expect(hover(6).contains("whole rule list") || hover(6).contains("**disjunction"), "a refused filter, or its finding: \(hover(6))")
        func hover(_ line: Int, _ character: Int) -> String {
            ((NavigationTests.request(editor, "textDocument/hover", path, position: (line, character)) as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        }
        #expect(hover(9, 17).contains("matches every URL"), "\(hover(9, 17))")
        #expect(hover(9, 19).isEmpty, "past the value's end: nothing")
    }

    /// A key already set in the mapping is not offered again; another tool's YAML gets none.
    @Test func onlyKeysNotYetWrittenAndOnlyInPolicies() throws {
        let top = try Self.labels("webpolicy: 1\nname: p\n")
        #expect(!top.contains("name") && !top.contains("webpolicy") && top.contains("navigation"))
        let rule = try Self.labels("webpolicy: 1\ncontent-rules:\n  - id: x\n    action: block\n    |\n  - url-filter: y")
        #expect(!rule.contains("id") && !rule.contains("action") && rule.contains("url-filter"), "the next item's keys are its own")
        #expect(try Self.labels("name: build\non: [push]\njobs:\n  ").isEmpty)
    }

    @Test func aKeysHoverIsItsSchemaDescription() throws {
        let (editor, path) = try Editor.opening("webpolicy: 1\nname: p\nwebview:\n  javascript: false\n", as: "p.yaml", folder: "lsp-keyhover")
        let hover = try #require(NavigationTests.request(editor, "textDocument/hover", path, position: (3, 3)) as? [String: Any])
        let value = try #require((hover["contents"] as? [String: Any])?["value"] as? String)
        #expect(value.hasPrefix("**webview.javascript**"), "\(value)")
        #expect(NavigationTests.request(editor, "textDocument/hover", path, position: (3, 15)) is NSNull, "a value, no finding: nothing")
    }
}

@Suite("webpolicy lsp: a trace's lenses")
struct TraceLensTests {
    /// Each request line of a trace gets simulate's verdict, its expectation's check and the
    /// reason, from the policy's text open in the editor (unsaved) when it is open.
    @Test func eachLineShowsWhatSimulateDecides() throws {
        let folder = try TemporaryFolder.make("lsp-trace")
        let policyPath = folder.appendingPathComponent("shop.yaml").path
        let tracePath = folder.appendingPathComponent("shop.trace").path
        let policy = "webpolicy: 1\nname: shop\ncontent-rules:\n  - action: block\n    url-filter: tracker\n"
        try policy.write(toFile: policyPath, atomically: true, encoding: .utf8)
        let trace = "policy: shop.yaml\npage https://www.example.com/\nscript https://tracker.example.net/t.js expect=block\nimage https://cdn.example.com/a.png expect=block\n"
        let editor = Editor()
        _ = editor.initialize()
        editor.open(tracePath, text: trace)
        func lenses() -> [String] {
            editor.send(["id": 60, "method": "textDocument/codeLens", "params": ["textDocument": ["uri": URL(fileURLWithPath: tracePath).absoluteString]]])
            let result = editor.received.last { $0["id"] as? Int == 60 }?["result"] as? [[String: Any]] ?? []
            return result.map { lens in
                let line = (((lens["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int ?? -1) + 1
                return "\(line): \((lens["command"] as? [String: Any])?["title"] as? String ?? "")"
            }
        }
        let shown = lenses()
        #expect(shown.count == 3)
        #expect(shown[1].hasPrefix("3: block ✓ — "), "\(shown)")
        #expect(shown[2].hasPrefix("4: allow ✗ expected block — "), "\(shown)")
        // The same as simulate says of the file, reason and all.
        try trace.write(toFile: tracePath, atomically: true, encoding: .utf8)
        let results = try SimulationSession().run(paths: [tracePath]).report.all
        #expect(shown == results.map { "\($0.entry.line): \($0.verdict.rawValue)\(!$0.hasExpectations ? "" : $0.passed ? " ✓" : " ✗ expected \($0.entry.expect!.rawValue)") — \($0.reason)" })
        // The policy opened and edited, unsaved: the lenses follow its text.
        editor.open(policyPath, text: policy.replacingOccurrences(of: "tracker", with: "cdn"))
        let edited = lenses()
        #expect(edited[1].hasPrefix("3: allow ✗ expected block"), "\(edited)")
        #expect(edited[2].hasPrefix("4: block ✓"), "\(edited)")
        // A policy that stops loading is said on the trace at once, and unsaid when it loads.
        editor.change(policyPath, text: "webpolicy: 2\n", version: 2)
        editor.pending.removeFirst()()
        #expect(editor.diagnostics(for: tracePath)?.contains { ($0["message"] as? String)?.contains("does not load") == true } == true)
        editor.change(policyPath, text: policy, version: 3)
        editor.pending.removeFirst()()
        #expect(editor.diagnostics(for: tracePath)?.isEmpty == true)
        // A lens run shows its line's decision.
        editor.send(["id": 61, "method": "workspace/executeCommand", "params": ["command": "webpolicy.simulateLine", "arguments": [3, "block ✓ — x"]]])
        #expect(editor.received.contains { $0["method"] as? String == "window/showMessage" && (($0["params"] as? [String: Any])?["message"] as? String)?.hasPrefix("line 3: block") == true })
        // A broken line is the trace's diagnostic.
        editor.change(tracePath, text: trace + "image notaurl\n", version: 4)
        editor.pending.removeFirst()()
        #expect(editor.diagnostics(for: tracePath)?.contains { $0["code"] as? String == "trace" } == true)
    }
}
