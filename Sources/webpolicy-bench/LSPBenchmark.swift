import BenchSupport
import Foundation

/// `webpolicy lsp` driven over standard input and output as an editor drives it: a policy
/// opened, then edited a character at a time, each edit timed from the change sent to its
/// diagnostics received (the server started with `--debounce 0`: the time is the re-lint's,
/// not the pause the server waits for in an editor). Targets: 50 ms for a policy of 1,000
/// entries, 1 s for the imported EasyList + EasyPrivacy policy; memory flat over 10,000 edits.
struct LSPBenchmark {
    let list: String?
    let edits: Int

    /// A server process and its pipes.
    final class Server {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        private var buffer: [UInt8] = []

        init() throws {
            process.executableURL = URL(fileURLWithPath: RealListBenchmark.webpolicy)
            process.arguments = ["lsp", "--debounce", "0"]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        func send(_ object: [String: Any]) throws {
            write(try Self.framed(object))
        }

        /// A message as it goes down the pipe: made before a clock starts, so a figure times
        /// the server, not this program's JSON encoder (Foundation's takes a fifth of a second
        /// over a 10 MB text an editor encodes in a few milliseconds).
        static func framed(_ object: [String: Any]) throws -> Data {
            var message = object
            message["jsonrpc"] = "2.0"
            let body = try JSONSerialization.data(withJSONObject: message)
            return Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        }

        func write(_ framed: Data) {
            input.fileHandleForWriting.write(framed)
        }

        /// The next message the server sends.
        func receive() throws -> [String: Any] {
            while true {
                if let end = buffer.indices.dropLast(3).first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }) {
                    let header = String(decoding: buffer[..<end], as: UTF8.self)
                    let length = Int(header.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
                    if buffer.count >= end + 4 + length {
                        let body = Data(buffer[(end + 4)..<(end + 4 + length)])
                        buffer.removeFirst(end + 4 + length)
                        return try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
                    }
                }
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the server closed its output"]) }
                buffer += data
            }
        }

        /// Waits for the diagnostics of `uri`; how many there are.
        func diagnostics(of uri: String) throws -> Int {
            while true {
                let message = try receive()
                if message["method"] as? String == "textDocument/publishDiagnostics", let params = message["params"] as? [String: Any], params["uri"] as? String == uri {
                    return (params["diagnostics"] as? [Any])?.count ?? 0
                }
            }
        }

        /// The server's resident memory, in megabytes (Linux's /proc).
        var residentMegabytes: Double {
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
        }

        func stop() throws {
            try send(["id": 99, "method": "shutdown"])
            try send(["method": "exit"])
            input.fileHandleForWriting.closeFile()
            process.waitUntilExit()
        }
    }

    /// A policy of `count` entries: content rules, hosts and cookies, as a team's grows.
    static func policy(entries count: Int) -> String {
        var text = "webpolicy: 1\nname: large\ntarget: { ios: \"16\" }\nhttp-allowlist:\n"
        for index in 0..<(count / 4) { text += "  - host: legacy-\(index).example.com\n    reason: an old partner's images\n" }
        text += "content-rules:\n"
        for index in 0..<(count / 2) { text += "  - id: block-\(index)\n    action: block\n    url-filter: '^https?://([^/]+\\.)?tracker-\(index)\\.example\\.net/'\n    resource-type: [script, image]\n" }
        text += "navigation:\n  pages:\n"
        for index in 0..<(count - count / 4 - count / 2) { text += "    - \"*.site-\(index).example.org\"\n" }
        return text
    }

    func run(in folder: URL) throws {
        print("webpolicy lsp, driven over stdio (release build; --debounce 0: each figure is the re-lint's own time)")
        var cases = [("a policy of 1,000 entries", Self.policy(entries: 1_000), 50.0)]
        if let list {
            let imported = folder.appendingPathComponent("easylist.webpolicy.yaml").path
            let (result, _) = try CommandTimer.run(RealListBenchmark.webpolicy, ["import", list, "--output", imported], discardOutput: true)
            guard FileManager.default.fileExists(atPath: imported) else {
                throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "import failed: \(String(decoding: result.errors.suffix(1000), as: UTF8.self))"])
            }
            cases.append(("the imported EasyList + EasyPrivacy policy", try String(contentsOfFile: imported, encoding: .utf8), 1_000.0))
        }
        for (name, text, target) in cases {
            let path = folder.appendingPathComponent("policy.yaml").path
            let uri = URL(fileURLWithPath: path).absoluteString
            let server = try Server()
            try server.send(["id": 1, "method": "initialize", "params": ["capabilities": [:]]])
            _ = try server.receive()
            try server.send(["method": "initialized", "params": [:]])
            let opening = try Server.framed(["method": "textDocument/didOpen", "params": ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": text]]])
            var start = Date()
            server.write(opening)
            let first = try server.diagnostics(of: uri)
            let open = Date().timeIntervalSince(start)
            // Each edit types a character, or takes it away: into the policy's name, and for the
            // imported list also into a url-filter halfway down (one rule of 112,023 changes),
            // and a line break above the rules (every rule moves a line down).
            let rounds = name.contains("EasyList") ? min(edits, 7) : edits
            var memory: [Double] = []
            var version = 1
            func timedEdits(_ edited: (Int) -> String) throws -> (median: Double, p95: Double) {
                var times: [Double] = []
                for round in 0..<rounds {
                    version += 1
                    let change = try Server.framed(["method": "textDocument/didChange", "params": ["textDocument": ["uri": uri, "version": version], "contentChanges": [["text": edited(round)]]]])
                    start = Date()
                    server.write(change)
                    _ = try server.diagnostics(of: uri)
                    times.append(Date().timeIntervalSince(start) * 1_000)
                    if round == 99 || round == rounds - 1 { memory.append(server.residentMegabytes) }
                }
                let sorted = times.sorted()
                return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 95 / 100)])
            }
            let nameLine = text.range(of: "\nname: ")!
            let inName = try timedEdits { round in text.replacingCharacters(in: nameLine, with: "\nname: \(round % 2 == 0 ? "x" : "")") }
            print(String(format: "  %@: %d diagnostics; open %.0f ms; re-lint after a keystroke: median %.1f ms, p95 %.1f ms over %d edits (target ≤ %.0f ms: %@)",
                         name, first, open * 1_000, inName.median, inName.p95, rounds, target, inName.median <= target ? "met" : String(format: "short by %.1f×", inName.median / target)))
            if name.contains("EasyList"), let halfway = text.range(of: "url-filter: ", range: text.index(text.startIndex, offsetBy: text.utf8.count / 2)..<text.endIndex) {
                // After the opening quote, if the filter has one: the YAML stays whole.
                let at = text[halfway.upperBound] == "'" || text[halfway.upperBound] == "\"" ? text.index(after: halfway.upperBound) : halfway.upperBound
                let inRule = try timedEdits { round in round % 2 == 0 ? text.replacingCharacters(in: at..<at, with: "x") : text }
                // One more line each time: no rule is where it was in the last lint.
                let lineBreak = try timedEdits { round in text.replacingCharacters(in: nameLine, with: String(repeating: "\n", count: round + 1) + "\nname: ") }
                print(String(format: "  the same, a character typed into a url-filter halfway down: median %.1f ms, p95 %.1f ms (%@); a line break above the rules: median %.1f ms, p95 %.1f ms (%@)",
                             inRule.median, inRule.p95, inRule.median <= target ? "met" : String(format: "short by %.1f×", inRule.median / target),
                             lineBreak.median, lineBreak.p95, lineBreak.median <= target ? "met" : String(format: "short by %.1f×", lineBreak.median / target)))
                print(String(format: "  memory: %.0f MB after the open and %d edits", server.residentMegabytes, 3 * rounds))
            }
            if memory.count == 2 {
                print(String(format: "  memory: %.1f MB after 100 edits, %.1f MB after %d (%@)", memory[0], memory[1], rounds,
                             memory[1] <= memory[0] * 1.1 + 2 ? "flat" : "growing"))
            }
            try server.stop()
        }
    }
}
