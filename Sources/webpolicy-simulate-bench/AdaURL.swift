import BenchSupport
import Foundation

/// ada's URL parser (through the `can-ada` package on PyPI), installed into a throwaway
/// virtual environment and run on the trace's URLs by ada_urls.py: the same-run baseline for
/// canonicalising a URL.
enum AdaURL {
    struct Result {
        var urls: Int
        /// Per URL, with Python's per-call cost (measured the same way) taken off.
        var perURL: Double
        /// `can_parse` per URL, the same way: ada's parse without its result written out.
        var validatePerURL: Double
        var overhead: Double
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ada_urls.py").path

    static func run(urls file: String) -> Swift.Result<Result, BenchError> {
        guard FileManager.default.fileExists(atPath: script) else { return .failure(BenchError("\(script) is missing")) }
        let python: String
        switch PythonEnvironment.with(package: "can-ada", module: "can_ada") {
        case .success(let found): python = found
        case .failure(let error): return .failure(error)
        }
        guard let (measured, _) = try? CommandTimer.run(python, [script, file]), measured.status == 0,
              let object = try? JSONSerialization.jsonObject(with: measured.output) as? [String: Any],
              let urls = object["urls"] as? Int, let perURL = object["per_url_seconds"] as? Double, let overhead = object["overhead_seconds"] as? Double,
              let validate = object["can_parse_per_url_seconds"] as? Double else {
            return .failure(BenchError("ada_urls.py failed"))
        }
        return .success(Result(urls: urls, perURL: perURL, validatePerURL: validate, overhead: overhead))
    }
}
