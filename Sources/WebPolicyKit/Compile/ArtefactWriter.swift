#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WebPolicyRuntime

/// Writes artefacts so that a crash, a kill or a full disk never leaves a half-written one:
/// each file is written to a temporary file beside it, flushed to disk, then renamed over the
/// old one (`rename(2)` is atomic within a file system), and the folder is flushed too.
/// A reader sees the old artefact or the new one, never a mixture.
public enum ArtefactWriter {
    /// Temporary files are named `.<artefact>.webpolicy-tmp-<pid>-<n>`; leftovers of a killed
    /// run are removed by the next one.
    static let temporaryMarker = ".webpolicy-tmp-"

    /// Writes `artefacts` into `directory` (created if missing). Content-rule lists of the same
    /// policy from an earlier compile that the new one no longer has (`-3` after a split into
    /// two) are removed after the new files are in place.
    public static func write(_ artefacts: [Artefact], to directory: String, slug: String) throws(InputError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw InputError("cannot create the output folder \(directory): \(error.localizedDescription)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InputError("\(directory) is not a folder")
        }
        removeLeftovers(in: directory)
        for (index, artefact) in artefacts.enumerated() {
            try writeAtomically(artefact.data, to: directory + "/" + artefact.fileName, serial: index)
        }
        let written = Set(artefacts.map(\.fileName))
        for stale in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where stale.hasPrefix(slug + ".content-rules") && (stale.hasSuffix(".json") || stale.hasSuffix("." + EngineImageFile.fileExtension)) && !written.contains(stale) {
            try? FileManager.default.removeItem(atPath: directory + "/" + stale)
        }
        syncDirectory(directory)
    }

    /// Writes one file atomically (`webpolicy import --output`).
    public static func writeFile(_ contents: String, to path: String) throws(InputError) {
        let folder = (path as NSString).deletingLastPathComponent
        let directory = folder.isEmpty ? "." : folder
        try writeAtomically(Array(contents.utf8), to: directory + "/" + (path as NSString).lastPathComponent, serial: 0)
        syncDirectory(directory)
    }

    static func writeAtomically(_ bytes: [UInt8], to path: String, serial: Int) throws(InputError) {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = folder + "/." + name + temporaryMarker + "\(getpid())-\(serial)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw InputError("cannot write \(path): \(String(cString: strerror(errno)))") }
        var written = 0
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let result = posixWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                written += result
            }
        }
        if failure == nil && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        if close(descriptor) != 0 && failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw InputError("cannot write \(path): \(failure)")
        }
    }

    private static func removeLeftovers(in directory: String) {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where entry.hasPrefix(".") && entry.contains(temporaryMarker) {
            try? FileManager.default.removeItem(atPath: directory + "/" + entry)
        }
    }

    /// Makes the renames durable: a crash after this returns keeps the new files.
    private static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}

/// `write(2)`, named apart from Swift's `write` functions.
@inline(__always)
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, buffer, count)
    #else
    return Darwin.write(descriptor, buffer, count)
    #endif
}
