import FuzzCommon
import Foundation
import WebPolicyKit
import WebPolicyLSP
import WebPolicyRuntime

// `webpolicy lsp` fed an editing session: the input is a sequence of edits to a policy
// (insert, delete or replace at a place, with text from the input) and of requests at places
// (completion, hover, code actions, symbols, links). The server must answer each, never
// crash, and publish after each change exactly what lint says of the new text, lines and all:
// a stale or a wrong list is a finding. The messages also go through the framing in pieces of the input's
// choosing.

// Lists of several entries in block style, so that edits go through the decoder's memo: an
// entry kept, moved by a line added above it, or decoded again (the last entry never is kept).
let seed = """
webpolicy: 1
name: fuzz
content-rules:
  - id: ads
    action: block
    url-filter: ads
  - action: block
    url-filter: track(er|ing)
    if-domain: ["*news.example"]
  - action: css-display-none
    selector: "#ad"
    url-filter: .*
  - action: block
    url-filter: ads
navigation:
  pages:
    - "*.example.com"
    - app.example.org

"""

final class Session: @unchecked Sendable {
    var published: [String: [[String: Any]]] = [:]
    var framing = MessageFraming()
    var pieces: [Int] = [7]
    lazy var server = LanguageServer(send: { [unowned self] bytes in
        // The server's output framed and read back in pieces.
        var index = 0, turn = 0
        while index < bytes.count {
            let size = max(1, self.pieces[turn % self.pieces.count])
            let bodies = (try? self.framing.add(bytes[index..<min(index + size, bytes.count)])) ?? []
            for body in bodies {
                guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                    Invariant.check(false, "the server sent a body that is not a JSON object")
                    continue
                }
                if object["method"] as? String == "textDocument/publishDiagnostics", let params = object["params"] as? [String: Any], let uri = params["uri"] as? String {
                    self.published[uri] = params["diagnostics"] as? [[String: Any]] ?? []
                }
            }
            index += size
            turn += 1
        }
    })

    func send(_ object: [String: Any]) {
        var message = object
        message["jsonrpc"] = "2.0"
        server.handle(Array((try? JSONSerialization.data(withJSONObject: message)) ?? Data()))
    }
}

let path = Sandbox.emptyFolder + "/fuzz.yaml"
let uri = URL(fileURLWithPath: path).absoluteString

func fuzzLSP(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    let session = Session()
    let sizes = input.prefix(4).map { Int($0 % 64) + 1 }
    if !sizes.isEmpty { session.pieces = sizes }
    session.send(["id": 1, "method": "initialize", "params": ["capabilities": ["general": ["positionEncodings": input.first.map { $0 % 2 == 0 ? ["utf-16"] : ["utf-32"] } ?? []]]]])
    var text = seed
    session.send(["method": "textDocument/didOpen", "params": ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": text]]])
    var index = 4, version = 1
    while index + 3 <= input.count {
        let operation = input[index], place = Int(input[index + 1]) << 8 | Int(input[index + 2])
        let length = index + 3 < input.count ? Int(input[index + 3] % 16) : 0
        let payload = input.count > index + 4 ? Array(input[(index + 4)..<min(index + 4 + length, input.count)]) : []
        index += 4 + payload.count
        var scalars = Array(text.unicodeScalars)
        let at = scalars.isEmpty ? 0 : place % (scalars.count + 1)
        let line = place % 24, character = Int(operation) % 40
        switch operation % 8 {
        case 0, 1:
            scalars.insert(contentsOf: String(decoding: payload, as: UTF8.self).unicodeScalars, at: at)
        case 2:
            scalars.removeSubrange(at..<min(at + length, scalars.count))
        case 3:
            scalars.replaceSubrange(at..<min(at + 1, scalars.count), with: String(decoding: payload, as: UTF8.self).unicodeScalars)
        case 4:
            session.send(["id": 2, "method": "textDocument/completion", "params": ["textDocument": ["uri": uri], "position": ["line": line, "character": character]]])
        case 5:
            session.send(["id": 3, "method": "textDocument/hover", "params": ["textDocument": ["uri": uri], "position": ["line": line, "character": character]]])
        case 6:
            session.send(["id": 4, "method": "textDocument/codeAction", "params": ["textDocument": ["uri": uri], "range": ["start": ["line": line, "character": 0], "end": ["line": line + length, "character": 0]], "context": ["diagnostics": []]]])
        default:
            session.send(["id": 5, "method": "textDocument/documentSymbol", "params": ["textDocument": ["uri": uri]]])
            session.send(["id": 6, "method": "textDocument/documentLink", "params": ["textDocument": ["uri": uri]]])
        }
        let edited = String(String.UnicodeScalarView(scalars))
        guard edited != text else { continue }
        text = edited
        version += 1
        session.send(["method": "textDocument/didChange", "params": ["textDocument": ["uri": uri, "version": version], "contentChanges": [["text": text]]]])
    }
    // What is shown at the end is lint's word on the last text, finding for finding.
    let expected = LanguageServer.isPolicy(text, path: path)
        ? Linter(configuration: LintConfiguration(), baseDirectory: Sandbox.emptyFolder).lint(text: text, path: path).diagnostics.filter { $0.location.path == path }
            .map { "\($0.ruleID) \($0.message) lines \(max($0.location.range.start.line - 1, 0))-\(max($0.location.range.end.line - 1, 0))" }
        : []
    // The lines too: the server's lint keeps decoded entries between edits, and moves them
    // when lines above them come and go.
    let shown = (session.published[uri] ?? []).map { diagnostic in
        let range = diagnostic["range"] as? [String: Any]
        let lines = ["start", "end"].map { ((range?[$0] as? [String: Any])?["line"] as? Int).map(String.init) ?? "?" }
        return "\(diagnostic["code"] as? String ?? "") \(diagnostic["message"] as? String ?? "") lines \(lines[0])-\(lines[1])"
    }
    Invariant.check(shown == expected, "published \(shown.count) diagnostics, lint says \(expected.count), for:\n\(text)")
    return 0
}

Fuzzer.run { start, count in fuzzLSP(start, count) }
