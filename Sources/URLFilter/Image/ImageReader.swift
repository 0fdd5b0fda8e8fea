/// Why an engine image was not used: every check a reader makes says what failed, so a
/// rebuild can report its reason.
public struct ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

/// Reads the tables an `ImageWriter` laid out, in the same order, as views into the bytes
/// (nothing is copied). Every table's record is checked — its place inside the bytes, its
/// element size, its alignment — and each structure checks the values that index other
/// tables before it trusts them (`check(_:below:)`), so that bytes that were damaged or made
/// up are refused with a reason and never read out of bounds.
public struct ImageReader {
    public let bytes: ImageBytes
    public private(set) var offset: Int
    private let end: Int

    public init(_ bytes: ImageBytes, range: Range<Int>? = nil) {
        self.bytes = bytes
        offset = range?.lowerBound ?? 0
        end = range?.upperBound ?? bytes.count
    }

    public mutating func table<T: BitwiseCopyable>(_: T.Type = T.self, _ what: @autoclosure () -> String) throws(ImageError) -> FlatTable<T> {
        alignOffset()
        guard offset + 16 <= end else { throw ImageError("the image ends where its table of \(what()) should start (byte \(offset))") }
        let count = bytes.base.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
        let stride = bytes.base.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self).littleEndian
        guard stride == MemoryLayout<T>.stride else {
            throw ImageError("the table of \(what()) at byte \(offset) holds elements of \(stride) bytes, not \(MemoryLayout<T>.stride)")
        }
        offset += 16
        let (size, overflow) = Int(clamping: count).multipliedReportingOverflow(by: MemoryLayout<T>.stride)
        guard count <= UInt64(Int32.max), !overflow, offset + size <= end else {
            throw ImageError("the table of \(what()) at byte \(offset - 16) claims \(count) elements, more than the image holds")
        }
        let start = bytes.base + offset
        offset += size
        alignOffset()
        guard Int(bitPattern: start) % MemoryLayout<T>.alignment == 0 else { throw ImageError("the table of \(what()) is not aligned") }
        return FlatTable(base: size == 0 ? nil : start.assumingMemoryBound(to: T.self), count: Int(count))
    }

    /// Lists written by `ImageWriter.write(lists:)`: their starts must rise from 0 to the
    /// number of values.
    public mutating func lists<T: BitwiseCopyable>(_: T.Type = T.self, _ what: @autoclosure () -> String) throws(ImageError) -> FlatLists<T> {
        let offsets = try table(Int32.self, "starts of \(what())")
        let values = try table(T.self, what())
        guard offsets.count >= 1, offsets[0] == 0, Int(offsets[offsets.count - 1]) == values.count else {
            throw ImageError("the lists of \(what()) do not start at 0 and end at their \(values.count) values")
        }
        var previous: Int32 = 0
        for start in offsets.buffer {
            guard start >= previous else { throw ImageError("the lists of \(what()) go backwards") }
            previous = start
        }
        return FlatLists(offsets: offsets, values: values)
    }

    public mutating func scalars(_ count: Int, _ what: @autoclosure () -> String) throws(ImageError) -> [Int64] {
        let table = try table(Int64.self, what())
        guard table.count == count else { throw ImageError("\(what()): \(table.count) values, not \(count)") }
        return Array(table.buffer)
    }

    /// Moves past bytes that a nested structure read with a reader of its own.
    public mutating func skip(to position: Int) { offset = position }

    public var isAtEnd: Bool {
        var copy = self
        copy.alignOffset()
        return copy.offset >= end
    }

    private mutating func alignOffset() {
        let remainder = offset % ImageBytes.alignment
        if remainder != 0 { offset += ImageBytes.alignment - remainder }
    }
}

extension FlatTable where Element: FixedWidthInteger {
    /// Throws unless every value lies in `range`: what a table that indexes another must hold
    /// before it is used. Inlinable, so that a caller in another module runs it specialised:
    /// generic, through the integer protocols' witnesses, it was most of mapping a real list's
    /// cached engine (90 million instructions, a third of `simulate`'s start-up).
    @inlinable
    package func check(_ range: Range<Element>, _ what: @autoclosure () -> String) throws(ImageError) {
        guard count > 0 else { return }
        var low = Element.max, high = Element.min
        for value in buffer {
            low = Swift.min(low, value)
            high = Swift.max(high, value)
        }
        guard low >= range.lowerBound, high < range.upperBound else {
            throw ImageError("\(what()) holds \(low < range.lowerBound ? low : high), outside \(range.lowerBound)..<\(range.upperBound)")
        }
    }
}

extension FlatLists where Element: FixedWidthInteger {
    @inlinable
    package func check(_ range: Range<Element>, _ what: @autoclosure () -> String) throws(ImageError) {
        try values.check(range, what())
    }
}
