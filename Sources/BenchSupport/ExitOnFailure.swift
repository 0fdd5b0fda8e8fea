import Foundation

/// Runs one step of a benchmark's top-level code. A step that cannot run (no release build of
/// `webpolicy` to time, a list that is not there) prints why and exits 2, the exit code of bad
/// input, instead of trapping with "Error raised at top level" and a backtrace.
public func exitOnFailure<T>(_ step: () throws -> T) -> T {
    do {
        return try step()
    } catch {
        let name = (CommandLine.arguments.first as NSString?)?.lastPathComponent ?? "benchmark"
        FileHandle.standardError.write(Data("\(name): \(describe(error))\n".utf8))
        exit(2)
    }
}

/// The message an error was made with: Foundation errors carry it in their user info,
/// the benchmarks' own errors in their description.
func describe(_ error: Error) -> String {
    if let message = (error as NSError).userInfo[NSLocalizedDescriptionKey] as? String { return message }
    if error is CocoaError { return error.localizedDescription }
    return String(describing: error)
}
