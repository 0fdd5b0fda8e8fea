#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import URLFilter

/// A file mapped read-only into memory (`mmap`), as `ImageBytes`: an engine image is used in
/// place, its pages read from the file as the matcher touches them and shared by every process
/// that maps it — nothing is parsed or copied. The mapping is private and read-only, so the
/// file changing under it later cannot change what the engine reads.
enum MappedFile {
    /// The file's bytes, or why they cannot be had.
    static func map(_ path: String) throws(ImageError) -> ImageBytes {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ImageError("cannot open it (\(String(cString: strerror(errno))))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ImageError("cannot read its size (\(String(cString: strerror(errno))))") }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw ImageError("it is not a regular file") }
        let size = Int(status.st_size)
        guard size > 0 else { throw ImageError("it is empty") }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw ImageError("cannot map it (\(String(cString: strerror(errno))))")
        }
        nonisolated(unsafe) let mapped = address
        return ImageBytes(base: UnsafeRawPointer(address), count: size, release: { munmap(mapped, size) })
    }
}

/// A file's bytes, read straight into an array: a 13 MB manifest (an imported blocklist's)
/// is not held twice, as `Data` and then as bytes.
package enum FileBytes {
    static func read(_ path: String) -> Result<[UInt8], ImageError> {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return .failure(ImageError(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(ImageError(String(cString: strerror(errno)))) }
        let size = Int(status.st_size)
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = readAll(descriptor, into: UnsafeMutableRawPointer(buffer.baseAddress!), size, failure: &failure)
        }
        return failure == 0 ? .success(bytes) : .failure(ImageError(String(cString: strerror(failure))))
    }

    /// An image file's bytes, read once into memory aligned as tables need: a copy, not a
    /// mapping, because another run may replace a cache file while this one reads it (a
    /// mapping of a file cut short faults), and one copy, where `Data`, an array and then
    /// the image had each held the 17 MB of a real list's engine (three times its pages
    /// touched at start-up).
    package static func image(_ path: String) throws(ImageError) -> ImageBytes {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ImageError("cannot open it (\(String(cString: strerror(errno))))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ImageError("cannot read its size (\(String(cString: strerror(errno))))") }
        let size = Int(status.st_size)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: ImageBytes.alignment)
        var failure: Int32 = 0
        let count = readAll(descriptor, into: memory, size, failure: &failure)
        guard failure == 0, count == size else {
            memory.deallocate()
            throw ImageError(failure == 0 ? "it was cut short while read" : "cannot read it (\(String(cString: strerror(failure))))")
        }
        nonisolated(unsafe) let owned = memory
        return ImageBytes(base: UnsafeRawPointer(memory), count: size, release: { owned.deallocate() })
    }

    /// Reads up to `size` bytes into `buffer`, through interruptions; how many it read, and
    /// `failure` the error that stopped it (EIO at an early end).
    private static func readAll(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, _ size: Int, failure: inout Int32) -> Int {
        var count = 0
        while count < size {
            let got = posixRead(descriptor, buffer + count, size - count)
            if got < 0, errno == EINTR { continue }
            if got <= 0 {
                failure = got < 0 ? errno : EIO
                break
            }
            count += got
        }
        return count
    }

    private static func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.read(descriptor, buffer, count)
        #else
        Glibc.read(descriptor, buffer, count)
        #endif
    }
}
