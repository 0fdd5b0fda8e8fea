import BenchSupport
import Foundation
import WebPolicyRuntime
import WebPolicyKit

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
        let bare = try measure([Self.webpolicy, "lint", list])
        row("lint the list itself, as a user names a vendor's list", bare.seconds, bare.peakMegabytes,
            "\(String(format: "%.1f", bare.seconds / read))× the read; \(String(format: "%.2f", bare.seconds / linted.seconds))× the policy's lint (target ≤ 1.5 s)")
        let output = folder.appendingPathComponent("compiled").path
        let compiled = try measure([Self.webpolicy, "compile", policy, "--output", output])
        row("compile the policy (lint, lower, self-check, write)", compiled.seconds, compiled.peakMegabytes, nil)

        // WebKit's own compile of the same list, in the same run.
        switch WebKitCompile.measure(list: data, scratch: folder, helperScript: WebKitCompileHelper.script) {
        case .success(let (webkit, accepted)):
            row("WebKit (WebKitGTK) compiles the same list", webkit.seconds, webkit.peakMegabytes, accepted ? "compiled" : "refused")
            print(String(format: "ratio, same run: compile = %.2f× WebKit's own compile (%@)", compiled.seconds / webkit.seconds,
                         compiled.seconds < webkit.seconds ? "faster than WebKit" : "slower than WebKit"))
        case .failure(let reason):
            print("  WebKit's compile skipped: \(reason)")
        }
        try WorstShapes(list: list, iterations: iterations).run(in: folder)
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
}
