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

    @Test func theAuditBenchmarkTimesTheAuditOnAnApp() throws {
        let program = CommandRunner.executable.deletingLastPathComponent().appendingPathComponent("webpolicy-bench").path
        let missing = try CommandRunner.runProgram(program, ["--audit", "/nonexistent/app"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "webpolicy-bench: no such folder: /nonexistent/app\n", "\(missing.stderr)")
        let result = try CommandRunner.runProgram(program, ["--audit", "Tests/Fixtures/audit/mixed-app/app", "--iterations", "1"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("webpolicy audit "), "\(result.stdout)")
        #expect(result.stdout.contains("findings: ats-exception-not-allowlisted 1"), "\(result.stdout)")
        #expect(result.stdout.contains("mobsfscan              not installed"), "\(result.stdout)")
    }
}
