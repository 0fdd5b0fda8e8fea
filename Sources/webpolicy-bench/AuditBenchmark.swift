import BenchSupport
import Foundation

/// `webpolicy-bench --audit DIR [--policy FILE]`: `webpolicy audit` on a real app's tree, as a
/// whole command (reading every Swift and Objective-C file on every core, the plists and
/// storyboards, the rules), beside MobSF's `mobsfscan` on the same tree when it is installed
/// (`pip install mobsfscan`). The baseline, same run: reading the files the audit reads.
/// Figures: wall time (median of N), peak memory, Swift lines a second, and the ratio to
/// mobsfscan's time.
struct AuditBenchmark {
    let directory: String
    let policy: String?
    let iterations: Int

    static let foreign: Set<String> = ["Pods", "Carthage", ".build", "DerivedData", "SourcePackages", "node_modules", ".git", ".swiftpm", "build"]

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BenchFailure("no such folder: \(directory)")
        }
        var files: [String] = []
        var swiftLines = 0
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if (enumerator?.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory {
                if Self.foreign.contains(name) { enumerator?.skipDescendants() }
                continue
            }
            let path = (directory as NSString).appendingPathComponent(relative)
            guard ["swift", "m", "mm", "h", "plist", "storyboard", "xib", "entitlements"].contains((name as NSString).pathExtension) else { continue }
            files.append(path)
            if name.hasSuffix(".swift"), let data = FileManager.default.contents(atPath: path) {
                swiftLines += data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            }
        }
        let bytes = try files.reduce(0) { $0 + (try FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int ?? 0) }
        print("webpolicy-bench --audit \(directory): \(files.count) files, \(String(format: "%.1f", Double(bytes) / 1e6)) MB, \(swiftLines) Swift lines; median of \(iterations), whole commands, release build, \(ProcessInfo.processInfo.activeProcessorCount) cores")

        let reading = median { _ in _ = files.map { FileManager.default.contents(atPath: $0)?.count ?? 0 } }
        print(String(format: "  reading the files      %7.3f s  (the floor)", reading))

        // What the audit itself reads (test targets and dependency folders left out).
        let inventory = try CommandTimer.run(RealListBenchmark.webpolicy, ["audit", directory, "--inventory", "--no-config"]).0
        let read = (try? JSONSerialization.jsonObject(with: inventory.output) as? [String: Any]) ?? [:]
        let auditedLines = read["lines"] as? Int ?? swiftLines
        print("  the audit reads \(auditedLines) lines of Swift and Objective-C (\(read["skippedTestFiles"] as? Int ?? 0) test files left out)")
        var arguments = ["audit", directory, "--format", "json", "--no-config"]
        if let policy { arguments += ["--policy", policy] }
        var audit = try CommandTimer.run(RealListBenchmark.webpolicy, arguments, discardOutput: false).0
        guard audit.status == 0 || audit.status == 1 else { throw BenchFailure("webpolicy audit exited \(audit.status): \(String(decoding: audit.errors, as: UTF8.self))") }
        let findings = Self.findingsByRule(audit.output)
        var times = [audit.seconds]
        for _ in 1..<max(iterations, 1) {
            audit = try CommandTimer.run(RealListBenchmark.webpolicy, arguments, discardOutput: true).0
            times.append(audit.seconds)
        }
        let auditSeconds = times.sorted()[times.count / 2]
        print(String(format: "  webpolicy audit        %7.3f s  peak %5.0f MB  %6.0fk lines/s  %5.1f× reading", auditSeconds, audit.peakMegabytes,
                     Double(auditedLines) / auditSeconds / 1000, auditSeconds / max(reading, 1e-6)))
        if !findings.isEmpty {
            print("    findings: " + findings.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }

        guard let mobsfscan = Self.which("mobsfscan") else {
            print("  mobsfscan              not installed (pip install mobsfscan): no ratio")
            return
        }
        var mobsfTimes: [Double] = []
        var mobsfPeak = 0.0
        var mobsfFindings = 0
        for index in 0..<max(iterations, 1) {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("mobsfscan-\(getpid()).json").path
            let run = try CommandTimer.run(mobsfscan, ["--json", "-o", output, directory], discardOutput: true).0
            mobsfTimes.append(run.seconds)
            mobsfPeak = max(mobsfPeak, run.peakMegabytes)
            if index == 0, let data = FileManager.default.contents(atPath: output),
               let results = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["results"] as? [String: Any] {
                mobsfFindings = results.values.reduce(0) { $0 + ((($1 as? [String: Any])?["files"] as? [Any])?.count ?? 0) }
            }
            try? FileManager.default.removeItem(atPath: output)
        }
        let mobsf = mobsfTimes.sorted()[mobsfTimes.count / 2]
        print(String(format: "  mobsfscan              %7.3f s  peak %5.0f MB  (%d findings)", mobsf, mobsfPeak, mobsfFindings))
        print(String(format: "  ratio                  audit = %.3f× mobsfscan's time", auditSeconds / mobsf))
    }

    private func median(_ body: (Int) -> Void) -> Double {
        var samples: [Double] = []
        for index in 0..<max(iterations, 1) {
            let start = DispatchTime.now().uptimeNanoseconds
            body(index)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return samples.sorted()[samples.count / 2]
    }

    /// Findings by rule in `audit --format json` (diagnostics), or facts by kind (an
    /// inventory).
    static func findingsByRule(_ output: Data) -> [String: Int] {
        guard let object = try? JSONSerialization.jsonObject(with: output) as? [String: Any] else { return [:] }
        var counts: [String: Int] = [:]
        for diagnostic in object["diagnostics"] as? [[String: Any]] ?? [] { counts[diagnostic["rule"] as? String ?? "?", default: 0] += 1 }
        for fact in object["facts"] as? [[String: Any]] ?? [] { counts["fact:" + (fact["fact"] as? String ?? "?"), default: 0] += 1 }
        return counts
    }

    static func which(_ program: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
