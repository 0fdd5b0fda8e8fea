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
