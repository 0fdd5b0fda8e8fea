/// Lays tables out one after the other for an engine image: each as a 16-byte record (its
/// element count and element size) followed by its elements, both starting on 16-byte
/// boundaries, so that a reader can use every table in place, aligned, straight from the
/// bytes (`ImageReader`). Element types are plain values (`BitwiseCopyable`) written as they
/// lie in memory; an image records the layout it was written with, and a reader on another
/// layout rebuilds instead of reading (the engine image's header).
public struct ImageWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func write<T: BitwiseCopyable>(_ values: [T]) {
        // A record with room between or after its fields would write whatever memory held
        // there, and compile would not give the same bytes twice: records spell out their
        // padding as zero fields.
        precondition(MemoryLayout<T>.size == MemoryLayout<T>.stride, "\(T.self) has padding; give it explicit zero fields")
        pad()
        append(UInt64(values.count))
        append(UInt32(MemoryLayout<T>.stride))
        append(UInt32(0))
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        pad()
    }

    /// Lists as two tables (`FlatLists`).
    public mutating func write<T: BitwiseCopyable>(lists: [[T]]) {
        let (offsets, values) = FlatLists<T>.flatten(lists)
        write(offsets)
        write(values)
    }

    /// Scalars, as one table.
    public mutating func write(scalars: [Int64]) { write(scalars) }

    /// Tables written elsewhere (a structure's own image), kept 16-byte aligned: tables hold
    /// counts and positions, never addresses, so they read the same at any aligned offset.
    package mutating func append(bytes other: UnsafeRawBufferPointer) {
        pad()
        bytes.append(contentsOf: other)
    }

    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func pad() {
        let remainder = bytes.count % ImageBytes.alignment
        if remainder != 0 { bytes += [UInt8](repeating: 0, count: ImageBytes.alignment - remainder) }
    }
}
