import Foundation
import Testing

/// Progress as a person at a terminal sees it: the binary run with standard error on a
/// pseudo-terminal, standard output on a pipe.
@Suite("Progress on a terminal (the binary)")
struct ProgressCommandTests {
    /// A trace long enough for a debug build to pass the one-second delay on any machine (60,000
    /// requests took 0.8 s on a machine of 2026: four times that, for a margin).
    static let trace: URL = {
        let folder = try! CommandRunner.makeFolder(["p.yaml": """
        webpolicy: 1
        name: progress
        content-rules:
          - id: trackers
            action: block
            hosts: [tracker.example.net]

        """])
        var text = "policy: p.yaml\n"
        let lines = "script https://tracker.example.net/t.js top=https://news.example.com/ expect=block\nimage https://news.example.com/a.png top=https://news.example.com/ expect=allow\n"
        text += String(repeating: lines, count: 120_000)
        let url = folder.appendingPathComponent("long.trace")
        try! text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }()

    struct Run {
        var status: Int32
        var stdout: String
        /// What the terminal received.
        var terminal: String
    }

    /// Runs webpolicy with standard error on a new pseudo-terminal; `unset` names are taken out
    /// of the environment (the tests run under CI=true).
    static func runOnTerminal(_ arguments: [String], environment: [String: String] = [:], unset: [String] = ["CI", "WEBPOLICY_PROGRESS"]) throws -> Run {
        let (master, name) = try #require(PseudoTerminal.open())
        let terminal = try #require(FileHandle(forUpdatingAtPath: name))
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = trace.deletingLastPathComponent()
        var env = ProcessInfo.processInfo.environment
        for key in unset { env.removeValue(forKey: key) }
        env["WEBPOLICY_CACHE_DIR"] = CommandRunner.cacheDirectory.path
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = terminal
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try terminal.close()
        let group = DispatchGroup()
        nonisolated(unsafe) var received = Data()
        DispatchQueue.global().async(group: group) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            // Reading the master ends with EIO once the child has closed the terminal.
            while true {
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { break }
                received.append(contentsOf: buffer[0..<count])
            }
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        close(master)
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), terminal: String(decoding: received, as: UTF8.self))
    }

    @Test func aLongSimulationShowsProgressOnTheTerminalAndLeavesTheOutputAlone() throws {
        let run = try Self.runOnTerminal(["simulate", "long.trace"])
        #expect(run.status == 0)
        #expect(run.stdout == "240000 passed, 0 failed\n", "standard output is what it is without a terminal")
        #expect(run.terminal.contains("simulating long.trace  "), "\(run.terminal.suffix(300))")
        #expect(run.terminal.contains(" requests  "))
        #expect(run.terminal.hasSuffix("\r\u{1B}[2K"), "the line is erased at the end")
        let summary = try CommandRunner.run(["simulate", "--format", "summary", "long.trace"], in: Self.trace.deletingLastPathComponent())
        let onTerminal = try Self.runOnTerminal(["simulate", "--format", "summary", "long.trace"])
        #expect(onTerminal.stdout == summary.stdout, "a format machines read holds no progress")
    }

    @Test func underCINothingIsDrawn() throws {
        let run = try Self.runOnTerminal(["simulate", "long.trace"], environment: ["CI": "true"])
        #expect(run.status == 0)
        #expect(run.terminal.isEmpty, "\(run.terminal.suffix(300))")
    }
}

/// A new pseudo-terminal: its controlling side and the path of the terminal a program is given.
/// Glibc declares posix_openpt and its companions only for _XOPEN_SOURCE, which Swift's Glibc
/// module is not built with, so there they are looked up by name.
enum PseudoTerminal {
    static func open() -> (master: Int32, path: String)? {
        #if canImport(Darwin)
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else { return nil }
        return (master, String(cString: name))
        #else
        typealias OpenPT = @convention(c) (Int32) -> Int32
        typealias OnDescriptor = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        let library = dlopen(nil, RTLD_NOW)
        guard let openPT = dlsym(library, "posix_openpt"), let grant = dlsym(library, "grantpt"),
              let unlock = dlsym(library, "unlockpt"), let name = dlsym(library, "ptsname") else { return nil }
        let master = unsafeBitCast(openPT, to: OpenPT.self)(O_RDWR | O_NOCTTY)
        guard master >= 0, unsafeBitCast(grant, to: OnDescriptor.self)(master) == 0, unsafeBitCast(unlock, to: OnDescriptor.self)(master) == 0,
              let path = unsafeBitCast(name, to: Name.self)(master) else { return nil }
        return (master, String(cString: path))
        #endif
    }
}
