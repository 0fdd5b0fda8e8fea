import Foundation

/// The command line's trace arguments, as the traces to replay.
public enum TracePaths {
    public struct Expansion: Sendable {
        public var traces: [String] = []
        /// Folders named that hold no trace: a repository's first day (policies, no traces
        /// yet), which passes with a note rather than failing a commit hook.
        public var foldersWithoutTraces: [String] = []

        /// The note for standard error, if a folder held nothing to replay.
        public var note: String? {
            guard !foldersWithoutTraces.isEmpty else { return nil }
            let folders = foldersWithoutTraces.joined(separator: ", ")
            let what = traces.isEmpty ? "nothing was replayed" : "nothing was replayed from \(foldersWithoutTraces.count == 1 ? "it" : "them")"
            return "webpolicy: note: \(folders) \(foldersWithoutTraces.count == 1 ? "holds" : "hold") no .trace or .har files; \(what) (docs/trace-format.md: write one, or record one from a HAR capture with --record)\n"
        }
    }

    /// Each argument as a trace, HAR capture or `-`; a folder stands for the .trace and .har
    /// files in it (a pre-commit hook passes `policies`). A path that does not exist, or a policy or a
    /// content-blocker list named where a trace belongs, is an input error.
    public static func expand(_ arguments: [String]) throws(InputError) -> Expansion {
        var expansion = Expansion()
        for path in arguments {
            if path == "-" {
                expansion.traces.append(path)
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw InputError("no such file: \(path)") }
            guard isDirectory.boolValue else {
                try checkIsTrace(path)
                expansion.traces.append(path)
                continue
            }
            let found = find(in: path)
            if found.isEmpty { expansion.foldersWithoutTraces.append(path) }
            expansion.traces += found
        }
        return expansion
    }

    /// Whether `path` is read as a HAR capture: named `.har`, or any other file but a `.trace`
    /// whose JSON object holds a `log` (a browser's export saved as `.json`, a capture tool's
    /// file without an extension).
    public static func isHAR(_ path: String) -> Bool {
        let ext = (path as NSString).pathExtension.lowercased()
        if ext == "har" { return true }
        guard ext != "trace", path != "-", let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let prefix = try? handle.read(upToCount: 4_096) else { return false }
        return looksLikeHAR(Array(prefix))
    }

    /// A JSON object (after a byte-order mark and blank space) whose first bytes name `"log"`.
    static func looksLikeHAR(_ bytes: [UInt8]) -> Bool {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
        let key = Array("\"log\"".utf8)
        return bytes[index...].indices.contains { bytes[$0...].starts(with: key) }
    }

    /// A policy or a list given as a trace would be read line by line into a screenful of
    /// "not key=value" errors; it is said once, with the option that takes it.
    private static func checkIsTrace(_ path: String) throws(InputError) {
        let ext = (path as NSString).pathExtension.lowercased()
        guard ext != "trace", !isHAR(path) else { return }
        switch InputKind.of(path: path) {
        case .policy:
            throw InputError("\(path) is a policy, not a trace: pass it with --policy (webpolicy simulate --policy \(path) TRACE...), or name its traces, whose 'policy:' header points to it")
        case .contentBlockerList:
            throw InputError("\(path) is a content-blocker list, not a trace: pass it with --content-rules (webpolicy simulate --content-rules \(path) TRACE...)")
        case .other:
            return
        }
    }

    /// The `.trace` and `.har` files below a folder, hidden entries skipped, sorted. A capture
    /// whose trace was recorded beside it (`--record` writes `visit.trace` from `visit.har`)
    /// is replayed once, as the trace: that is where its expectations are kept.
    public static func find(in folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let entry = walker.nextObject() as? String {
            if (entry as NSString).lastPathComponent.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            let ext = (entry as NSString).pathExtension.lowercased()
            if ext == "trace" || ext == "har" { found.append(folder.hasSuffix("/") ? folder + entry : folder + "/" + entry) }
        }
        let traces = Set(found.filter { $0.hasSuffix(".trace") }.map { ($0 as NSString).deletingPathExtension })
        return found.filter { path in
            !(path as NSString).pathExtension.lowercased().hasPrefix("har") || !traces.contains((path as NSString).deletingPathExtension)
        }.sorted()
    }
}
