import BenchSupport
import Foundation
import WebPolicyRuntime

/// Brave's ad-block engine (adblock-rust, through the `adblock` package on PyPI), installed
/// into a throwaway virtual environment and run on the benchmark's trace by brave_adblock.py.
enum BraveAdblock {
    struct Result {
        var engine: String
        var build: Double
        var check: Double
        var requests: Int
        var blocked: Int
        var wall: Double
        var peakMegabytes: Double
    }

    /// The script beside this file in the sources.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("brave_adblock.py").path

    /// An app's launch on Brave's engine, as a process: deserialize the precompiled engine of
    /// `filters` (written once into `scratch`) and check one request. Each of `runs` timed.
    static func startUp(filters: String, scratch: URL, runs: Int) -> Swift.Result<(runs: [CommandTimer.Measurement], engineBytes: Int), BenchError> {
        let python: String
        switch environment() {
        case .success(let found): python = found
        case .failure(let error): return .failure(error)
        }
        let engine = scratch.appendingPathComponent("brave-engine.dat").path
        guard let written = try? CommandTimer.run(python, [script, "--serialize", filters, engine]).0, written.status == 0 else {
            return .failure(BenchError("brave_adblock.py --serialize failed"))
        }
        var measured: [CommandTimer.Measurement] = []
        for _ in 0..<runs {
            guard let run = try? CommandTimer.run(python, [script, "--startup", engine]).0, run.status == 0 else { return .failure(BenchError("brave_adblock.py --startup failed")) }
            measured.append(run)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: engine)[.size] as? Int) ?? 0
        return .success((measured, size))
    }

    static func run(filters: String, trace: String, scratch: URL) -> Swift.Result<Result, BenchError> {
        let python: String
        switch environment() {
        case .success(let found): python = found
        case .failure(let error): return .failure(error)
        }
        guard let (measured, _) = try? CommandTimer.run(python, [script, filters, trace]), measured.status == 0,
              let object = try? JSONSerialization.jsonObject(with: measured.output) as? [String: Any],
              let build = object["build_seconds"] as? Double, let check = object["check_seconds"] as? Double,
              let requests = object["requests"] as? Int, let blocked = object["blocked"] as? Int else {
            return .failure(BenchError("brave_adblock.py failed"))
        }
        return .success(Result(engine: object["engine"] as? String ?? "adblock", build: build, check: check, requests: requests, blocked: blocked,
                               wall: measured.seconds, peakMegabytes: measured.peakMegabytes))
    }

    private static func environment() -> Swift.Result<String, BenchError> {
        guard FileManager.default.fileExists(atPath: script) else { return .failure(BenchError("\(script) is missing")) }
        return PythonEnvironment.with(package: "adblock", module: "adblock")
    }
}

/// A virtual environment in the temporary folder with one PyPI package, kept between runs of
/// the benchmark: the peers it measures against come from PyPI.
enum PythonEnvironment {
    /// Its python, with `package` installed on first use.
    static func with(package: String, module: String) -> Swift.Result<String, BenchError> {
        let environment = FileManager.default.temporaryDirectory.appendingPathComponent("webpolicy-bench-\(package)").path
        let python = environment + "/bin/python"
        if (try? CommandTimer.run(python, ["-c", "import \(module)"]).0.status) != 0 {
            guard let system = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile) ?? which("python3") else {
                return .failure(BenchError("no python3 to install it with"))
            }
            guard let created = try? CommandTimer.run(system, ["-m", "venv", environment]).0, created.status == 0 else {
                return .failure(BenchError("python3 -m venv failed (Debian: apt-get install python3-venv)"))
            }
            guard let installed = try? CommandTimer.run(python, ["-m", "pip", "install", "--quiet", package]).0, installed.status == 0 else {
                return .failure(BenchError("pip install \(package) failed (PyPI unreachable?)"))
            }
        }
        return .success(python)
    }

    private static func which(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }.first(where: FileManager.default.isExecutableFile)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
