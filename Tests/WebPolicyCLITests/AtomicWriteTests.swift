import Foundation
import Testing

/// `webpolicy compile` never leaves a half-written artefact: killed at any moment, or failing
/// to write (a full disk), every artefact in the output folder is the old file or the new one.
@Suite("compile writes atomically (the binary)", .serialized)
struct AtomicWriteTests {
    /// A policy whose content-blocker list is several megabytes, so writing it takes a while;
    /// `variant` changes every rule, so old and new artefacts differ throughout.
    static func policy(_ variant: String) -> String {
        let selector = (0..<120).map { ".\(variant)-slot-\($0) > div[data-ad]" }.joined(separator: ", ")
        var text = "webpolicy: 1\nname: atomic\ntarget: { ios: \"16.0\" }\nhttp-allowlist:\n  - host: \(variant).example.com\n    reason: test\ncontent-rules:\n"
        for index in 0..<1_000 {
            text += "  - action: css-display-none\n    url-filter: '^https://site\(index)\\.example/'\n    selector: '\(selector)'\n"
        }
        return text
    }

    static func contents(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// Artefacts are hidden temporary files while they are written; only those may be extra.
    static func artefacts(_ files: [String: Data]) -> [String: Data] {
        files.filter { !$0.key.hasPrefix(".") }
    }

    @Test func killingCompileMidWriteLeavesOldOrNewArtefactsOnly() throws {
        let folder = try CommandRunner.makeFolder(["old.yaml": Self.policy("old"), "new.yaml": Self.policy("new")])
        #expect(try CommandRunner.run(["compile", "new.yaml", "-o", "expected"], in: folder).status == 0)
        let newFiles = try Self.contents(of: folder.appendingPathComponent("expected"))
        #expect(newFiles["atomic.content-rules.json"].map { $0.count > 3_000_000 } == true)

        // The old artefacts are compiled once and copied in before each kill: a debug compile
        // of this policy takes seconds, and the test is the longest of the suite, so it kills
        // at three moments (as the temporary file appears, early in the write, late in it).
        #expect(try CommandRunner.run(["compile", "old.yaml", "-o", "old"], in: folder).status == 0)
        let oldFiles = try Self.contents(of: folder.appendingPathComponent("old"))
        var killsDuringWrites = 0
        for delay in [0.0, 0.005, 0.030] {
            let output = folder.appendingPathComponent("out")
            try? FileManager.default.removeItem(at: output)
            try FileManager.default.copyItem(at: folder.appendingPathComponent("old"), to: output)

            let process = Process()
            process.executableURL = CommandRunner.executable
            process.arguments = ["compile", "new.yaml", "-o", "out"]
            process.currentDirectoryURL = folder
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait until the first temporary file appears: the writing has begun.
            let deadline = Date().addingTimeInterval(120)
            while process.isRunning && Date() < deadline {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
                if names.contains(where: { $0.contains(".webpolicy-tmp-") }) {
                    killsDuringWrites += delay == 0 ? 1 : 0
                    break
                }
                usleep(200)
            }
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let after = Self.artefacts(try Self.contents(of: output))
            #expect(Set(after.keys) == Set(oldFiles.keys), "after a kill at +\(delay)s: \(after.keys.sorted())")
            for (name, data) in after {
                #expect(data == oldFiles[name] || data == newFiles[name], "\(name) is neither the old nor the new artefact after a kill at +\(delay)s")
            }
        }
        // The next complete run finishes the job and sweeps the killed runs' temporary files.
        #expect(try CommandRunner.run(["compile", "new.yaml", "-o", "out"], in: folder).status == 0)
        #expect(try Self.contents(of: folder.appendingPathComponent("out")) == newFiles)
        #expect(killsDuringWrites == 1, "the immediate kill must land while a temporary file is being written")
    }

    /// A write that fails part-way (here the file-size limit, as a full disk would) leaves the
    /// old artefacts and no temporary file, and exits 2.
    @Test func aFailedWriteKeepsTheOldArtefacts() throws {
        let folder = try CommandRunner.makeFolder(["old.yaml": Self.policy("old"), "new.yaml": Self.policy("new")])
        #expect(try CommandRunner.run(["compile", "old.yaml", "-o", "out"], in: folder).status == 0)
        let oldFiles = try Self.contents(of: folder.appendingPathComponent("out"))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // Ignore SIGXFSZ so the write fails with EFBIG instead of killing the process.
        process.arguments = ["-c", "trap '' XFSZ; ulimit -f 1024; exec \"$0\" compile new.yaml -o out", CommandRunner.executable.path]
        process.currentDirectoryURL = folder
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(message.contains("cannot write out/atomic.content-rules.json"), "\(message)")
        #expect(try Self.contents(of: folder.appendingPathComponent("out")) == oldFiles)
    }
}
