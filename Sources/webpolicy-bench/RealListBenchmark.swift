import BenchSupport
import Foundation
import WebPolicyRuntime

/// `webpolicy-bench --list LIST.json`: import, lint and compile of a real content-blocker list
/// through the command line, as a user runs them, each with its peak memory, next to two
/// baselines from the same run — reading the input (Foundation's JSONSerialization parsing the
/// list) and WebKit's own compiler (WebKitGTK, through the helper `webpolicy verify` ships)
/// compiling the same list.
struct RealListBenchmark {
    let list: String
    let iterations: Int

    static var folderOfExecutable: URL { URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent() }
    static var webpolicy: String { folderOfExecutable.appendingPathComponent("webpolicy").path }

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webpolicy-bench-list-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try Data(contentsOf: URL(fileURLWithPath: list))
        let rules = (try JSONSerialization.jsonObject(with: data) as? [Any])?.count ?? 0
        print("webpolicy-bench: \((list as NSString).lastPathComponent), \(rules) rules, \(String(format: "%.1f", Double(data.count) / 1_048_576)) MB; median of \(iterations) run\(iterations == 1 ? "" : "s") each, whole commands")

        let read = median { _ = try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: list))) }
        row("baseline: JSONSerialization reads the list", read, nil)

        let policy = folder.appendingPathComponent("imported.yaml").path
        let imported = try measure([Self.webpolicy, "import", list, "--output", policy, "--force"])
        row("import: list -> policy YAML (WebKit's checks, positions)", imported.seconds, imported.peakMegabytes, "\(String(format: "%.1f", imported.seconds / read))× the read")
        let linted = try measure([Self.webpolicy, "lint", policy])
        row("lint the imported policy (every rule)", linted.seconds, linted.peakMegabytes, "\(String(format: "%.1f", linted.seconds / read))× the read")
        let output = folder.appendingPathComponent("compiled").path
        let compiled = try measure([Self.webpolicy, "compile", policy, "--output", output])
        row("compile the policy (lint, lower, self-check, write)", compiled.seconds, compiled.peakMegabytes, nil)

        // WebKit's own compile of the same list, in the same run.
        let helper = Self.folderOfExecutable.appendingPathComponent("webpolicy_WebPolicyKit.resources/webkit_compile.py").path
        let python = ProcessInfo.processInfo.environment["WEBPOLICY_WEBKIT_PYTHON"] ?? "/usr/bin/python3"
        let probe = try? CommandTimer.run(python, ["-c", "import gi; gi.require_version('WebKit2', '4.1'); from gi.repository import WebKit2"]).0
        if FileManager.default.fileExists(atPath: helper), probe?.status == 0 {
            let request = folder.appendingPathComponent("webkit-request.json").path
            let text = String(decoding: data, as: UTF8.self)
            try Data(#"[{"id": "list", "json": "#.utf8).write(to: URL(fileURLWithPath: request))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: request))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(Self.jsonString(text).utf8) + Data("}]".utf8))
            try handle.close()
            let webkit = try measure([python, helper], stdin: request)
            let verdict = String(decoding: webkit.output, as: UTF8.self)
            row("WebKit (WebKitGTK) compiles the same list", webkit.seconds, webkit.peakMegabytes, verdict.contains("\"ok\": true") ? "compiled" : "refused")
            print(String(format: "ratio, same run: compile = %.2f× WebKit's own compile (%@)", compiled.seconds / webkit.seconds,
                         compiled.seconds < webkit.seconds ? "faster than WebKit" : "slower than WebKit"))
        } else {
            print("  WebKit's compile skipped: WebKitGTK is not installed (apt-get install gir1.2-webkit2-4.1 python3-gi)")
        }
    }

    private func measure(_ command: [String], stdin: String? = nil) throws -> CommandTimer.Measurement {
        var runs: [CommandTimer.Measurement] = []
        for _ in 0..<iterations {
            let (run, _) = try CommandTimer.run(command[0], Array(command.dropFirst()), stdin: stdin)
            guard run.status == 0 || run.status == 1 else {
                throw BenchFailure("\(command.joined(separator: " ")) exited \(run.status): \(String(decoding: run.errors.suffix(1500), as: UTF8.self))")
            }
            runs.append(run)
        }
        return runs.sorted { $0.seconds < $1.seconds }[runs.count / 2]
    }

    private func median(_ body: () -> Void) -> Double {
        (0..<iterations).map { _ in CommandTimer.seconds(body) }.sorted()[iterations / 2]
    }

    private func row(_ label: String, _ seconds: Double, _ peak: Double?, _ detail: String? = nil) {
        var line = "  " + label.padding(toLength: 58, withPad: " ", startingAt: 0) + String(format: "%7.2f s", seconds)
        if let peak { line += String(format: "  peak %4.0f MB", peak) }
        if let detail { line += "  " + detail }
        print(line)
    }

    /// A JSON string literal of `text`.
    static func jsonString(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
        let array = data.map { String(decoding: $0, as: UTF8.self) } ?? "[\"\"]"
        return String(array.dropFirst().dropLast())
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
