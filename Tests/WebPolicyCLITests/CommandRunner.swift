import Foundation
import TestSupport

/// Runs the built `webpolicy` binary, as swift-argument-parser's `AssertExecuteCommand` does.
struct CommandRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `webpolicy` executable next to the test bundle (SwiftPM builds it for `swift test`).
    /// The engine cache of this test run: a temporary folder (`EngineCache`).
    static let cacheDirectory = TemporaryFolder.location("webpolicy-cli-cache")

    static let executable: URL = {
        var candidates: [URL] = []
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent("webpolicy"))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("webpolicy"))
        candidates.append(repositoryRoot.appendingPathComponent(".build/debug/webpolicy"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) && !$0.hasDirectoryPath } ?? candidates.last!
    }()

    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], stdin: String? = nil) throws -> Result {
        try runProgram(executable.path, arguments, in: directory, environment: environment, stdin: stdin)
    }

    /// Another program (a CI script that calls webpolicy), run the same way.
    static func runProgram(_ program: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], stdin: String? = nil) throws -> Result {
        // A command may exit before it reads all its input (an input error at the first line):
        // writing the rest must fail with EPIPE, not kill the whole test run with SIGPIPE.
        _ = ignoreBrokenPipes
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? repositoryRoot
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        // Engine images go to a folder of the test run's, never the user's cache.
        env["WEBPOLICY_CACHE_DIR"] = cacheDirectory.path
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        // Standard input is written, and standard error read, while standard output is read:
        // a pipe that fills up while another is waited on would hang the test.
        let group = DispatchGroup()
        nonisolated(unsafe) var stderrData = Data()
        DispatchQueue.global().async(group: group) { stderrData = err.fileHandleForReading.readDataToEndOfFile() }
        if let stdin {
            DispatchQueue.global().async(group: group) {
                try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
                try? input.fileHandleForWriting.close()
            }
        }
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self), stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// A fresh temporary folder with the given files.
    static func makeFolder(_ files: [String: String]) throws -> URL {
        let folder = try TemporaryFolder.make("webpolicy-cli")
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return folder
    }
}
