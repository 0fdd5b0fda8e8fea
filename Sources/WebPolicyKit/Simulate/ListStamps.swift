#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WebPolicyRuntime

/// What a list file's `stat` says of it: which file it is and when its content last changed.
/// The engine cache remembers each list's identity (the SHA-256 and size of its bytes) under
/// its stamp, so that a warm run finds the image without reading and hashing the list again
/// (EasyList + EasyPrivacy: 12.5 MB, 0.9 billion instructions to hash, 0.085 s of every warm
/// start before the first request is decided).
///
/// As git trusts its index (racy-git, Documentation/technical/racy-git.txt): an identity is
/// remembered only for a file whose modification and status-change times are older than the
/// moment it is recorded by more than `EngineCache.stampMargin`, so that a later write, even
/// on a file system that keeps whole seconds, gives the file another stamp. The status-change
/// time moves on every write and cannot be set back (`touch -d` and `cp -p` set the
/// modification time only), and another file at the same path has another inode.
public struct ListStamp: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Timestamp
    var changed: Timestamp

    struct Timestamp: Hashable, Sendable, Comparable {
        var seconds: Int64
        var nanoseconds: Int64

        static func < (left: Timestamp, right: Timestamp) -> Bool { (left.seconds, left.nanoseconds) < (right.seconds, right.nanoseconds) }
    }

    /// The file's stamp; nil when it cannot be read or is not a regular file.
    public static func of(_ path: String) -> ListStamp? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        #if canImport(Darwin)
        let modified = status.st_mtimespec, changed = status.st_ctimespec
        #else
        let modified = status.st_mtim, changed = status.st_ctim
        #endif
        return ListStamp(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                         modified: Timestamp(seconds: Int64(modified.tv_sec), nanoseconds: Int64(modified.tv_nsec)),
                         changed: Timestamp(seconds: Int64(changed.tv_sec), nanoseconds: Int64(changed.tv_nsec)))
    }

    /// Whether a write after `now` would surely give the file another stamp.
    func isSettled(at now: Date, margin: TimeInterval) -> Bool {
        let limit = now.timeIntervalSince1970 - margin
        let latest = max(modified, changed)
        return Double(latest.seconds) + Double(latest.nanoseconds) / 1e9 < limit
    }

    fileprivate var fields: [String] {
        ["\(device)", "\(inode)", "\(size)", "\(modified.seconds)", "\(modified.nanoseconds)", "\(changed.seconds)", "\(changed.nanoseconds)"]
    }

    fileprivate init(device: UInt64, inode: UInt64, size: Int64, modified: Timestamp, changed: Timestamp) {
        (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
    }

    fileprivate init?(fields: ArraySlice<Substring>) {
        let numbers = fields.compactMap { Int64($0) }
        guard numbers.count == 7, let device = UInt64(fields[fields.startIndex]), let inode = UInt64(fields[fields.startIndex + 1]) else { return nil }
        self.init(device: device, inode: inode, size: numbers[2], modified: Timestamp(seconds: numbers[3], nanoseconds: numbers[4]),
                  changed: Timestamp(seconds: numbers[5], nanoseconds: numbers[6]))
    }
}

extension EngineCache {
    /// The file that remembers list identities by stamp, beside the images.
    static let stampsFileName = "list-stamps.txt"
    private static let stampsHeader = "webpolicy list stamps 1"
    /// How many lists' stamps are remembered (the most recent).
    static let stampCapacity = 64

    /// The identity remembered for the file at `path` as it is now, if any.
    public func rememberedIdentity(of path: String) -> EngineImageFile.ListIdentity? {
        guard let stamp = ListStamp.of(path) else { return nil }
        return readStamps().last { $0.stamp == stamp }?.identity
    }

    /// Remembers `identity` for the file at `path` — when its stamp is settled (see
    /// `ListStamp`); `stamp` is the one taken before the file was read, so that a write while
    /// it was read leaves nothing remembered.
    public func remember(_ identity: EngineImageFile.ListIdentity, of path: String, stampedBefore stamp: ListStamp?) {
        guard let stamp, ListStamp.of(path) == stamp, stamp.isSettled(at: now(), margin: stampMargin) else { return }
        var stamps = readStamps().filter { $0.stamp.device != stamp.device || $0.stamp.inode != stamp.inode }
        stamps.append((stamp, identity))
        let text = ([Self.stampsHeader] + stamps.suffix(Self.stampCapacity).map { entry in
            (entry.stamp.fields + [entry.identity.hexSHA256, "\(entry.identity.size)"]).joined(separator: " ")
        }).joined(separator: "\n") + "\n"
        write(Array(text.utf8), as: directory.appendingPathComponent(Self.stampsFileName))
    }

    /// The remembered stamps, oldest first; nothing for a missing or damaged file.
    private func readStamps() -> [(stamp: ListStamp, identity: EngineImageFile.ListIdentity)] {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(Self.stampsFileName).path) else { return [] }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard lines.first == Substring(Self.stampsHeader) else { return [] }
        return lines.dropFirst().compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 9, let stamp = ListStamp(fields: fields[0..<7]), let size = Int(fields[8]),
                  let identity = EngineImageFile.ListIdentity(hexSHA256: String(fields[7]), size: size) else { return nil }
            return (stamp, identity)
        }
    }
}
