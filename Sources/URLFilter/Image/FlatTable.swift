/// A read-only array of plain values inside an engine image (`ImageBytes`): what the matchers
/// index in their inner loops, used in place whether the image was built in this process or
/// mapped from a file. A table does not keep its bytes alive: the structure that holds it
/// holds the `ImageBytes` too.
public struct FlatTable<Element: BitwiseCopyable>: @unchecked Sendable, RandomAccessCollection {
    @usableFromInline let base: UnsafePointer<Element>?
    public let count: Int

    init(base: UnsafePointer<Element>?, count: Int) {
        self.base = base
        self.count = count
    }

    /// No elements.
    public static var empty: FlatTable { FlatTable(base: nil, count: 0) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    @inlinable @inline(__always)
    public subscript(index: Int) -> Element {
        // Bounds were checked when the image was read: every index a matcher uses comes from
        // a table whose values were checked against this one's count.
        assert(index >= 0 && index < count, "index \(index) out of \(count)")
        return base.unsafelyUnwrapped[index]
    }

    @inlinable package var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    /// Elements `range` (checked by the caller against `count`).
    @inlinable @inline(__always)
    package func slice(_ range: Range<Int>) -> UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: base.map { $0 + range.lowerBound }, count: range.count)
    }
}

/// Lists of values stored as one table of values and one of where each list starts (the
/// compressed-row layout): list `i` is `values[offsets[i] ..< offsets[i + 1]]`. Tens of
/// thousands of small arrays become two tables, read in place, with no allocation each.
public struct FlatLists<Element: BitwiseCopyable>: Sendable {
    let offsets: FlatTable<Int32>
    @usableFromInline let values: FlatTable<Element>

    init(offsets: FlatTable<Int32>, values: FlatTable<Element>) {
        self.offsets = offsets
        self.values = values
    }

    public var count: Int { max(offsets.count - 1, 0) }

    @inline(__always)
    package subscript(list: Int) -> UnsafeBufferPointer<Element> {
        values.slice(Int(offsets[list])..<Int(offsets[list + 1]))
    }

    @inline(__always)
    public func listCount(_ list: Int) -> Int { Int(offsets[list + 1] - offsets[list]) }

    /// The two tables of `lists`, for a writer.
    static func flatten(_ lists: [[Element]]) -> (offsets: [Int32], values: [Element]) {
        var offsets: [Int32] = [0]
        offsets.reserveCapacity(lists.count + 1)
        var values: [Element] = []
        values.reserveCapacity(lists.reduce(0) { $0 + $1.count })
        for list in lists {
            values += list
            offsets.append(Int32(values.count))
        }
        return (offsets, values)
    }
}
