/// Bytes an engine image lives in, kept alive as long as any table reads them: memory this
/// module allocated (an engine built in this process) or memory someone else owns and releases
/// (an image file the runtime mapped read-only). Immutable once made.
public final class ImageBytes: @unchecked Sendable {
    package let base: UnsafeRawPointer
    public let count: Int
    private let release: (@Sendable () -> Void)?

    /// Bytes owned elsewhere: `release` runs when the last table that reads them is gone.
    /// `base` must stay valid and unchanged until then, and be aligned to 16 bytes.
    package init(base: UnsafeRawPointer, count: Int, release: (@Sendable () -> Void)?) {
        precondition(Int(bitPattern: base) % ImageBytes.alignment == 0, "image bytes must be aligned to \(ImageBytes.alignment)")
        self.base = base
        self.count = count
        self.release = release
    }

    /// A copy of `bytes` in memory of its own, aligned as tables need.
    public convenience init<Bytes: Collection>(copying bytes: Bytes) where Bytes.Element == UInt8 {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: ImageBytes.alignment)
        var offset = 0
        for byte in bytes {
            memory.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
            offset += 1
        }
        nonisolated(unsafe) let owned = memory
        self.init(base: UnsafeRawPointer(memory), count: offset, release: { owned.deallocate() })
    }

    /// A copy of an array's bytes: one `memcpy`, for images built in this process.
    public convenience init(copying array: [UInt8]) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(array.count, 1), alignment: ImageBytes.alignment)
        array.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(memory), byteCount: $0.count) }
        nonisolated(unsafe) let owned = memory
        self.init(base: UnsafeRawPointer(memory), count: array.count, release: { owned.deallocate() })
    }

    deinit { release?() }

    /// Tables start at multiples of this, so that every element type reads aligned.
    public static let alignment = 16

    package var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}
