import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a whole command as users run it and measures it: wall time, and the peak memory of
/// the process (`wait4`'s resource usage, which `Process` does not give).
public enum CommandTimer {
    public struct Measurement {
        public var seconds: Double
        public var peakMegabytes: Double
        public var status: Int32
        public var output: Data
        public var errors: Data
    }

    /// `stdin`: a file to read standard input from; standard output is captured unless
    /// `discardOutput`, in which case only its size is counted.
    public static func run(_ executable: String, _ arguments: [String], stdin: String? = nil, discardOutput: Bool = false) throws -> (Measurement, outputBytes: Int) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webpolicy-bench-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outPath = discardOutput ? "/dev/null" : folder.appendingPathComponent("out").path
        let errPath = folder.appendingPathComponent("err").path

        var actions: posix_spawn_file_actions_t
        #if canImport(Glibc)
        actions = posix_spawn_file_actions_t()
        #else
        actions = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cannot run \(executable): \(String(cString: strerror(spawned)))"]) }
        // Linux's ru_maxrss of a child starts at the parent's size when it was spawned (a large
        // benchmark process would inflate it), so the child's own high-water mark is read from
        // /proc while it runs.
        let watcher = PeakWatcher(pid: pid)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        #if os(Linux)
        let peak = watcher.stop() ?? Double(usage.ru_maxrss) / 1024
        #else
        _ = watcher.stop()
        let peak = Double(usage.ru_maxrss) / 1_048_576
        #endif
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = discardOutput ? Data() : ((try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data())
        let outputBytes = discardOutput ? 0 : output.count
        let errors = (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data()
        return (Measurement(seconds: seconds, peakMegabytes: peak, status: exit, output: output, errors: errors), outputBytes)
    }

    /// The peak memory of this process so far, in megabytes.
    public static var ownPeakMegabytes: Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1_048_576
        #endif
    }

    /// Wall time of a closure, in seconds.
    public static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

/// Polls a process's `VmHWM` (its peak resident memory) in /proc every few milliseconds.
private final class PeakWatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var peakKilobytes = 0
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init(pid: pid_t) {
        let path = "/proc/\(pid)/status"
        guard FileManager.default.fileExists(atPath: path) else {
            running = false
            done.signal()
            return
        }
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                if let text = try? String(contentsOfFile: path, encoding: .utf8),
                   let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                   let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
                    lock.withLock { peakKilobytes = max(peakKilobytes, kilobytes) }
                }
                usleep(5_000)
            }
            done.signal()
        }
    }

    /// The peak seen, in megabytes (nil when /proc had nothing).
    func stop() -> Double? {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { peakKilobytes > 0 ? Double(peakKilobytes) / 1024 : nil }
    }
}
