import Foundation
import Testing

/// The benchmarks are public tools too: one that cannot run says why and exits 2, as the
/// command line does with bad input — not "Error raised at top level" and a backtrace.
@Suite("benchmark tools (the binaries)")
struct BenchmarkToolTests {
    @Test(arguments: ["webpolicy-simulate-bench", "webpolicy-bench"])
    func aListThatIsNotThereIsAnErrorNotACrash(tool: String) throws {
        let program = CommandRunner.executable.deletingLastPathComponent().appendingPathComponent(tool).path
        let result = try CommandRunner.runProgram(program, ["--list", "/nonexistent/webpolicy-bench/list.json"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("\(tool): "), "\(result.stderr)")
        #expect(!result.stderr.contains("Error raised at top level"), "\(result.stderr)")
    }
}
